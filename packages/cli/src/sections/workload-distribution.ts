import { type ComputeCapabilityRange, dramArchitectures, type SectionDefinition, type SectionMetric } from './section-definition.js';

/**
 * `WorkloadDistribution` ("GPU and Memory Workload Distribution"): active and elapsed cycles of
 * the SMs, their schedulers, the L1, the L2 and DRAM, so that an unevenly loaded unit shows (ncu's
 * table of each unit's average, minimum, maximum and sum: on the raw page).
 */

const memoryControllers: ComputeCapabilityRange[] = [
  { min: 87, max: 87 },
  { min: 110, max: 110 },
];

/** Each unit's active cycles, by rollup, for ncu's table of the distribution. */
function distribution(): SectionMetric[] {
  const units: [string, string, ComputeCapabilityRange[] | undefined][] = [
    ['SM Active Cycles', 'sm__cycles_active', undefined],
    ['SMSP Active Cycles', 'smsp__cycles_active', undefined],
    ['L1 Active Cycles', 'l1tex__cycles_active', undefined],
    ['L2 Active Cycles', 'lts__cycles_active', undefined],
    ['DRAM Active Cycles', 'dram__cycles_active', [...dramArchitectures]],
    ['MC Channel Active Cycles', 'mcc__cycles_active', memoryControllers],
  ];
  return units.flatMap(([label, base, on]) =>
    (['avg', 'min', 'max', 'sum'] as const).map((rollup) => ({ label: `${label} (${rollup})`, name: `${base}.${rollup}`, ...(on && { on }) })),
  );
}

export const workloadDistribution: SectionDefinition = {
  identifier: 'WorkloadDistribution',
  displayName: 'GPU and Memory Workload Distribution',
  order: 100,
  sets: ['basic', 'detailed', 'full', 'roofline'],
  header: [
    { label: 'Average SM Active Cycles', name: 'sm__cycles_active.avg' },
    { label: 'Average L1 Active Cycles', name: 'l1tex__cycles_active.avg' },
    { label: 'Average L2 Active Cycles', name: 'lts__cycles_active.avg' },
    { label: 'Average SMSP Active Cycles', name: 'smsp__cycles_active.avg' },
    { label: 'Average DRAM Active Cycles', name: 'dram__cycles_active.avg', on: dramArchitectures },
    { label: 'Average MC Channel Active Cycles', name: 'mcc__cycles_active.avg', on: memoryControllers },
    { label: 'Total SM Elapsed Cycles', name: 'sm__cycles_elapsed.sum' },
    { label: 'Total L1 Elapsed Cycles', name: 'l1tex__cycles_elapsed.sum' },
    { label: 'Total L2 Elapsed Cycles', name: 'lts__cycles_elapsed.sum' },
    { label: 'Total SMSP Elapsed Cycles', name: 'smsp__cycles_elapsed.sum' },
    { label: 'Total DRAM Elapsed Cycles', name: 'dram__cycles_elapsed.sum', on: dramArchitectures },
    { label: 'Total MC Channel Elapsed Cycles', name: 'mcc__cycles_elapsed.sum', on: memoryControllers },
  ],
  body: distribution(),
  leftOut: [],
};
