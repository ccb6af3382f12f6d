import type { SectionDefinition } from './section-definition.js';

/**
 * `LaunchStats` ("Launch Statistics"): the launch's shape and the resources it asks for. ncu takes
 * these from the launch and the driver, not from counters; kreplay computes those its launch
 * records hold (see launch-metrics.ts).
 */
export const launchStatistics: SectionDefinition = {
  identifier: 'LaunchStats',
  displayName: 'Launch Statistics',
  order: 70,
  sets: ['basic', 'detailed', 'full'],
  header: [
    { label: 'Grid Size', name: 'launch__grid_size' },
    { label: 'Cluster Size', name: 'launch__cluster_size', on: [{ min: 90 }] },
    { label: 'Registers Per Thread', name: 'launch__registers_per_thread' },
    { label: 'Block Size', name: 'launch__block_size' },
    { label: 'Dynamic Shared Memory Per Block', name: 'launch__shared_mem_per_block_dynamic' },
    { label: 'Threads', name: 'launch__thread_count' },
  ],
  body: [{ label: 'Achieved Occupancy', name: 'sm__warps_active.avg.pct_of_peak_sustained_active' }],
  leftOut: [
    {
      names: [
        'launch__func_cache_config',
        'launch__preferred_cluster_size',
        'launch__cluster_scheduling_policy',
        'launch__shared_mem_per_block_static',
        'launch__shared_mem_per_block_driver',
        'launch__shared_mem_config_size',
        'launch__uses_green_context',
        'launch__stack_size',
      ],
      reason: "attributes of the function and the context that the driver reports to ncu's launch callback; neither a capture nor kreplay's runtime records them yet",
    },
    {
      names: ['launch__sm_count', 'launch__tpc_count', 'launch__tpc_enabled'],
      reason: 'device attributes kreplay does not read yet',
    },
    {
      names: ['launch__waves_per_multiprocessor', 'sm__maximum_warps_per_active_cycle_pct'],
      reason: "ncu computes them from the theoretical occupancy, which needs the device's per-SM limits kreplay does not read yet",
    },
    {
      names: ['gr__workids_requested', 'gr__workids_granted', 'gr__workids_granted_as_ctas'],
      reason: 'collected by ncu on compute capability 10.0 and newer only (cluster launch control); not defined here yet',
    },
  ],
};
