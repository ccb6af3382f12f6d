import { computeWorkloadAnalysis } from './compute-workload-analysis.js';
import { instructionStatistics } from './instruction-statistics.js';
import { launchStatistics } from './launch-statistics.js';
import { memoryWorkloadAnalysis } from './memory-workload-analysis.js';
import { occupancy } from './occupancy.js';
import { schedulerStatistics } from './scheduler-statistics.js';
import type { SectionDefinition, SectionSetName } from './section-definition.js';
import { speedOfLightRooflineChart } from './speed-of-light-roofline-chart.js';
import { speedOfLight } from './speed-of-light.js';
import { warpStateStatistics } from './warp-state-statistics.js';
import { workloadDistribution } from './workload-distribution.js';

/** Every section `kreplay profile --section` knows, in ncu's order. */
export const sections: readonly SectionDefinition[] = [
  speedOfLight,
  speedOfLightRooflineChart,
  computeWorkloadAnalysis,
  memoryWorkloadAnalysis,
  schedulerStatistics,
  warpStateStatistics,
  instructionStatistics,
  launchStatistics,
  occupancy,
  workloadDistribution,
].sort((a, b) => a.order - b.order);

/** A section of ncu's sets that kreplay does not define, and why. */
export interface MissingSection {
  readonly identifier: string;
  readonly sets: readonly SectionSetName[];
  readonly reason: string;
}

const instrumented = "its metrics come from SASS instrumentation or PC sampling, which CUPTI's range profiler does not collect";
const notYet = 'not defined in kreplay yet';

/** ncu's sections of its sets that kreplay leaves out (ncu 2025.3), and why. */
export const missingSections: readonly MissingSection[] = [
  { identifier: 'MemoryWorkloadAnalysis_Chart', sets: ['detailed', 'full'], reason: `${notYet}: ncu's memory chart draws on dozens of metrics its GUI names` },
  { identifier: 'MemoryWorkloadAnalysis_Tables', sets: ['full'], reason: `${notYet}: ncu's memory tables draw on dozens of metrics its GUI names` },
  { identifier: 'SourceCounters', sets: ['detailed', 'full'], reason: instrumented },
  { identifier: 'NumaAffinity', sets: ['full'], reason: "the NUMA affinities of the system's GPUs and CPUs, not counters; kreplay does not read them" },
  { identifier: 'PmSampling', sets: ['full'], reason: 'PM sampling over time is another CUPTI profiler than the range profiler kreplay uses' },
  { identifier: 'PmSampling_WarpStates', sets: ['full'], reason: 'PM sampling over time is another CUPTI profiler than the range profiler kreplay uses' },
  { identifier: 'SpeedOfLight_HierarchicalSingleRooflineChart', sets: ['roofline'], reason: notYet },
  { identifier: 'SpeedOfLight_HierarchicalDoubleRooflineChart', sets: ['roofline'], reason: notYet },
  { identifier: 'SpeedOfLight_HierarchicalHalfRooflineChart', sets: ['roofline'], reason: notYet },
  { identifier: 'SpeedOfLight_HierarchicalTensorRooflineChart', sets: ['roofline'], reason: notYet },
];

/** ncu's sets, in its order. */
export const sectionSetNames: readonly SectionSetName[] = ['basic', 'detailed', 'full', 'roofline'];

/** The sections of a set that kreplay defines, in ncu's order. */
export function sectionsOfSet(set: SectionSetName): readonly SectionDefinition[] {
  return sections.filter((section) => section.sets.includes(set));
}

/** The sections of a set that kreplay leaves out. */
export function missingSectionsOfSet(set: SectionSetName): readonly MissingSection[] {
  return missingSections.filter((section) => section.sets.includes(set));
}
