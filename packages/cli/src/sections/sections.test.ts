import { describe, expect, it } from 'vitest';
import { planCuptiMetrics, UnsupportedError } from '@kreplay/native';
import { isLaunchMetric } from '../profile-launch.js';
import { collectedMetrics, findSections, resolveSections } from './resolve-sections.js';
import { missingSections, sectionSetNames, sections, sectionsOfSet } from './sections.js';

const metricName = /^[a-z0-9]+__[a-z0-9_]+(\.[a-z0-9_]+)*$/;

describe('section definitions', () => {
  it('are well formed: unique identifiers and orders, known sets, unique labels and well-formed metric names', () => {
    expect(new Set(sections.map((section) => section.identifier)).size).toBe(sections.length);
    expect(sections.map((section) => section.order)).toEqual([...sections.map((section) => section.order)].sort((a, b) => a - b));
    for (const section of sections) {
      expect(section.sets.every((set) => sectionSetNames.includes(set)), section.identifier).toBe(true);
      const labels = section.header.map((entry) => entry.label);
      expect(new Set(labels).size, section.identifier).toBe(labels.length);
      for (const entry of [...section.header, ...section.body]) {
        for (const name of [entry.name, ...(entry.options ?? []).map((option) => option.name)]) expect(name, section.identifier).toMatch(metricName);
      }
      const collected = new Set([...section.header, ...section.body].map((entry) => entry.name));
      for (const left of section.leftOut) {
        expect(left.reason.length, section.identifier).toBeGreaterThan(20);
        for (const name of left.names) expect(collected.has(name), `${section.identifier} ${name}`).toBe(false);
      }
    }
    for (const missing of missingSections) expect(sections.some((section) => section.identifier === missing.identifier)).toBe(false);
  });

  it("hold ncu's sets as ncu lists them", () => {
    expect(sectionsOfSet('basic').map((section) => section.identifier)).toEqual(['SpeedOfLight', 'LaunchStats', 'Occupancy', 'WorkloadDistribution']);
    expect(sectionsOfSet('full').map((section) => section.identifier)).toEqual([
      'SpeedOfLight',
      'SpeedOfLight_RooflineChart',
      'ComputeWorkloadAnalysis',
      'MemoryWorkloadAnalysis',
      'SchedulerStats',
      'WarpStateStats',
      'InstructionStats',
      'LaunchStats',
      'Occupancy',
      'WorkloadDistribution',
    ]);
  });

  it('resolve per architecture: filters drop metrics, options replace them, tables sort by metric name', () => {
    const [memory] = resolveSections(findSections(['MemoryWorkloadAnalysis'], undefined), 90);
    expect(memory!.header.map((entry) => entry.metric)).toContain('lrc__ilc_input_sectors.sum');
    const [ampere] = resolveSections(findSections(['MemoryWorkloadAnalysis'], undefined), 80);
    expect(ampere!.header.map((entry) => entry.metric)).toContain('lts__gcomp_input_sectors.sum');
    const [speedOfLight] = resolveSections(findSections(['SpeedOfLight'], undefined), 90);
    expect(speedOfLight!.header.map((entry) => entry.label)).toEqual([
      'DRAM Frequency',
      'SM Frequency',
      'Elapsed Cycles',
      'Memory Throughput',
      'DRAM Throughput',
      'Duration',
      'L1/TEX Cache Throughput',
      'L2 Cache Throughput',
      'SM Active Cycles',
      'Compute (SM) Throughput',
    ]);
    const [orin] = resolveSections(findSections(['SpeedOfLight'], undefined), 87);
    expect(orin!.header.map((entry) => entry.metric)).not.toContain('gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed');
  });

  it('are named as ncu names them: identifiers, regex:, and sets; an unknown or left-out one says why', () => {
    expect(findSections(['regex:^Memory'], undefined).map((section) => section.identifier)).toEqual(['MemoryWorkloadAnalysis']);
    expect(findSections(['Occupancy', 'SpeedOfLight'], 'basic').map((section) => section.identifier)).toEqual(['SpeedOfLight', 'LaunchStats', 'Occupancy', 'WorkloadDistribution']);
    expect(() => findSections(['SpeedOfLite'], undefined)).toThrow(/--section SpeedOfLite: no section has that identifier\. kreplay profile --list-sections lists the sections/);
    expect(() => findSections(['SourceCounters'], undefined)).toThrow(/kreplay leaves out ncu's SourceCounters: its metrics come from SASS instrumentation/);
    expect(() => findSections(['regex:('], undefined)).toThrow(/--section regex:\( is not a regular expression/);
  });

  it('collect the launch statistics from the launch, not from CUPTI', () => {
    const metrics = collectedMetrics(resolveSections(findSections(['LaunchStats'], undefined), 90), ['launch__grid_size', 'gpu__time_duration.sum']);
    expect(metrics).toEqual(['sm__warps_active.avg.pct_of_peak_sustained_active', 'gpu__time_duration.sum']);
    expect(isLaunchMetric('launch__grid_size')).toBe(true);
  });
});

/** Whether CUPTI's host API loads here (it needs no GPU). */
const cupti = await planCuptiMetrics({ chip: 'GH100', metrics: ['gpu__time_duration.sum'] }).then(
  () => ({ available: true, reason: '' }),
  (error: unknown) => {
    if (error instanceof UnsupportedError) return { available: false, reason: error.message };
    throw error;
  },
);

describe.skipIf(!cupti.available)(`section metrics in CUPTI's host API${cupti.available ? '' : ` (${cupti.reason})`}`, () => {
  it('are all known to CUPTI on the chips of each architecture they apply to, and the left-out ones are not', async () => {
    for (const [chip, capability] of [['TU102', 75], ['GA100', 80], ['GA102', 86], ['AD102', 89], ['GH100', 90], ['GB100', 100], ['GB202', 120]] as const) {
      const unknown: string[] = [];
      for (const metric of collectedMetrics(resolveSections(sections, capability), [])) {
        await planCuptiMetrics({ chip, metrics: [metric] }).catch(() => unknown.push(metric));
      }
      expect(unknown, chip).toEqual([]);
    }
    const collectable: string[] = [];
    for (const name of sections.flatMap((section) => section.leftOut.flatMap((left) => left.names)).filter((name) => !isLaunchMetric(name))) {
      await planCuptiMetrics({ chip: 'GH100', metrics: [name] }).then(() => collectable.push(name), () => undefined);
    }
    expect(collectable).toEqual([]);
  }, 120_000);
});
