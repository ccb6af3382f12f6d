/**
 * The metrics of ncu's SpeedOfLight section that the profile page draws as bars against 100% of
 * the peak sustained rate: Compute (SM) Throughput and Memory Throughput.
 */
export const speedOfLightMetrics = [
  { metric: 'sm__throughput.avg.pct_of_peak_sustained_elapsed', label: 'Compute (SM) throughput', className: 'compute' },
  { metric: 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Memory throughput', className: 'memory' },
] as const;
