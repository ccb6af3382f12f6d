import { dramArchitectures, type SectionDefinition } from './section-definition.js';

/**
 * `SpeedOfLight` ("GPU Speed Of Light Throughput"): how close the kernel came to the peak
 * throughput of the SMs and of the memory units, with its duration and clocks.
 */
export const speedOfLight: SectionDefinition = {
  identifier: 'SpeedOfLight',
  displayName: 'GPU Speed Of Light Throughput',
  order: 10,
  sets: ['basic', 'detailed', 'full', 'roofline'],
  header: [
    { label: 'Compute (SM) Throughput', name: 'sm__throughput.avg.pct_of_peak_sustained_elapsed' },
    { label: 'Duration', name: 'gpu__time_duration.sum' },
    { label: 'Memory Throughput', name: 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed' },
    { label: 'Elapsed Cycles', name: 'gpc__cycles_elapsed.max' },
    { label: 'L1/TEX Cache Throughput', name: 'l1tex__throughput.avg.pct_of_peak_sustained_active' },
    { label: 'SM Active Cycles', name: 'sm__cycles_active.avg' },
    { label: 'L2 Cache Throughput', name: 'lts__throughput.avg.pct_of_peak_sustained_elapsed' },
    { label: 'SM Frequency', name: 'gpc__cycles_elapsed.avg.per_second' },
    { label: 'DRAM Throughput', name: 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', on: dramArchitectures },
    { label: 'DRAM Frequency', name: 'dram__cycles_elapsed.avg.per_second', on: dramArchitectures },
  ],
  body: [],
  leftOut: [
    {
      names: ['launch__waves_per_multiprocessor'],
      reason: "ncu computes it from the launch and the theoretical occupancy, which needs the device's per-SM limits kreplay does not read yet",
    },
    {
      names: ['breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed', 'breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'],
      reason: "ncu expands a breakdown into the throughputs it is the maximum of, from tables of its own that CUPTI's host API does not list",
    },
  ],
};
