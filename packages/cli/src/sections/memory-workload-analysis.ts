import { dramArchitectures, type SectionDefinition } from './section-definition.js';

/**
 * `MemoryWorkloadAnalysis` ("Memory Workload Analysis"): how busy the memory units were, the
 * bandwidth used, and the L1 and L2 hit rates.
 */
export const memoryWorkloadAnalysis: SectionDefinition = {
  identifier: 'MemoryWorkloadAnalysis',
  displayName: 'Memory Workload Analysis',
  order: 30,
  sets: ['detailed', 'full'],
  header: [
    { label: 'Memory Throughput', name: 'dram__bytes.sum.per_second', on: dramArchitectures },
    { label: 'Mem Busy', name: 'gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed' },
    { label: 'L1/TEX Hit Rate', name: 'l1tex__t_sector_hit_rate.pct' },
    { label: 'Max Bandwidth', name: 'gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed' },
    { label: 'L2 Hit Rate', name: 'lts__t_sector_hit_rate.pct' },
    { label: 'Mem Pipes Busy', name: 'sm__memory_throughput.avg.pct_of_peak_sustained_elapsed' },
    {
      label: 'L2 Compression Input Sectors',
      name: 'lts__gcomp_input_sectors.sum',
      on: [
        { min: 80, max: 89 },
        { min: 110, max: 110 },
        { min: 120, max: 121 },
      ],
      options: [
        {
          name: 'lrc__ilc_input_sectors.sum',
          on: [
            { min: 90, max: 100 },
            { min: 103, max: 103 },
          ],
        },
      ],
    },
    {
      label: 'L2 Compression Ratio',
      name: 'lts__average_gcomp_output_sector_compression_achieved_rate.ratio',
      on: [{ min: 80 }],
      options: [
        {
          name: 'lrc__average_ilc_output_sector_compression_achieved_rate.pct',
          on: [
            { min: 90, max: 100 },
            { min: 103, max: 103 },
          ],
        },
      ],
    },
    {
      label: 'L2 Compression Success Rate',
      name: 'lts__average_gcomp_input_sector_success_rate.pct',
      on: [
        { min: 80, max: 89 },
        { min: 110, max: 110 },
        { min: 120, max: 121 },
      ],
      options: [
        {
          name: 'lrc__average_ilc_input_sector_success_rate.pct',
          on: [
            { min: 90, max: 100 },
            { min: 103, max: 103 },
          ],
        },
      ],
    },
  ],
  body: [],
  leftOut: [
    {
      names: ['derived__local_spilling_requests', 'derived__local_spilling_requests_pct', 'inst_executed'],
      reason: "ncu counts these with SASS instrumentation (sass__inst_executed_* and source-level metrics), which CUPTI's range profiler does not collect",
    },
    {
      names: ['launch__persisting_l2_cache_size'],
      reason: "a setting of the context that the driver reports to ncu's launch callback; kreplay does not record it",
    },
  ],
};
