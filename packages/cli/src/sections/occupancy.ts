import type { SectionDefinition } from './section-definition.js';

/**
 * `Occupancy`: the warps the SMs held on average against what they could hold. The achieved
 * values are counters; the theoretical ones ncu computes from the launch, the function's
 * attributes and the device's per-SM limits (its occupancy calculator), which kreplay does not
 * have yet, so they are left out.
 */
export const occupancy: SectionDefinition = {
  identifier: 'Occupancy',
  displayName: 'Occupancy',
  order: 80,
  sets: ['basic', 'detailed', 'full'],
  header: [
    { label: 'Achieved Occupancy', name: 'sm__warps_active.avg.pct_of_peak_sustained_active' },
    { label: 'Achieved Active Warps Per SM', name: 'sm__warps_active.avg.per_cycle_active' },
  ],
  body: [{ label: 'GPU Maximum Warps Per Scheduler', name: 'smsp__warps_active.avg.peak_sustained' }],
  leftOut: [
    {
      names: [
        'sm__maximum_warps_per_active_cycle_pct',
        'sm__maximum_warps_avg_per_active_cycle',
        'smsp__maximum_warps_avg_per_active_cycle',
        'launch__occupancy_limit_registers',
        'launch__occupancy_limit_shared_mem',
        'launch__occupancy_limit_warps',
        'launch__occupancy_limit_blocks',
        'launch__occupancy_limit_barriers',
        'launch__occupancy_cluster_pct',
        'launch__occupancy_cluster_gpu_pct',
        'launch__cluster_max_active',
        'launch__cluster_max_potential_size',
        'launch__occupancy_per_register_count',
        'launch__occupancy_per_block_size',
        'launch__occupancy_per_shared_mem_size',
        'launch__occupancy_per_barrier_count',
        'launch__occupancy_per_cluster_size',
      ],
      reason:
        "ncu's occupancy calculator derives them from the function's registers, shared memory and barriers and the device's per-SM limits (warps, blocks, registers, shared memory and their allocation granularity); kreplay does not read the device's limits yet",
    },
  ],
};
