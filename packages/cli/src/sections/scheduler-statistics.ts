import type { SectionDefinition } from './section-definition.js';

/**
 * `SchedulerStats` ("Scheduler Statistics"): how often the warp schedulers had an eligible warp
 * and issued, and how many warps they held.
 */
export const schedulerStatistics: SectionDefinition = {
  identifier: 'SchedulerStats',
  displayName: 'Scheduler Statistics',
  order: 40,
  sets: ['full'],
  header: [
    { label: 'One or More Eligible', name: 'smsp__issue_active.avg.pct_of_peak_sustained_active' },
    { label: 'Active Warps Per Scheduler', name: 'smsp__warps_active.avg.per_cycle_active' },
    { label: 'No Eligible', name: 'smsp__issue_inst0.avg.pct_of_peak_sustained_active' },
    { label: 'Eligible Warps Per Scheduler', name: 'smsp__warps_eligible.avg.per_cycle_active' },
    { label: 'Issued Warp Per Scheduler', name: 'smsp__issue_active.avg.per_cycle_active' },
  ],
  body: [{ label: 'GPU Maximum Warps Per Scheduler', name: 'smsp__warps_active.avg.peak_sustained' }],
  leftOut: [
    {
      names: ['smsp__maximum_warps_avg_per_active_cycle'],
      reason: "ncu computes it from the theoretical occupancy, which needs the device's per-SM limits kreplay does not read yet",
    },
  ],
};
