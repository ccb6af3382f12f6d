import { readFileSync } from 'node:fs';
import { profileReportSchemaId, profileReportVersion } from '../profile/profile-document.js';
import type { MetricValues, ProfileDocument, ProfileDocumentRow } from '../profile/profile-document.js';
import { rooflineMetrics } from '../profile/roofline.js';

/**
 * The profile of the capture acceptance run on an H200 (examples/capture-acceptance-h200: 148
 * launches of 42 kernels of a training step, SpeedOfLight metrics), written before profiles carried
 * their schema: given `schema`, `schemaVersion` and the fields added since (one sample, no warm run).
 */
export function exampleProfile(): ProfileDocument {
  const text = readFileSync(new URL('../../examples/capture-acceptance-h200/profile.json', import.meta.url), 'utf8');
  return { schema: profileReportSchemaId, schemaVersion: profileReportVersion, warmRuns: 0, samples: 1, ...(JSON.parse(text) as object) } as ProfileDocument;
}

const single = rooflineMetrics('single');
const double = rooflineMetrics('double');
const sol = ['sm__throughput.avg.pct_of_peak_sustained_elapsed', 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'];
/** Every metric of {@link syntheticRooflineProfile}: duration, SpeedOfLight, and ncu's roofline section in both precisions. */
export const rooflineProfileMetrics = [...new Set(['gpu__time_duration.sum', ...sol, ...single.achieved, ...single.peak, ...double.achieved, ...double.peak])];

const smClock = 1.755e9;
const dramClock = 2.619e9;
/** H100 SXM-like peaks: 16896 FFMA and 8448 DFMA per cycle, 1279 DRAM bytes per cycle. */
const peaks: MetricValues = {
  'sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained': 16896,
  'sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained': 8448,
  'sm__cycles_elapsed.avg.per_second': smClock,
  'dram__bytes.sum.peak_sustained': 1279,
  'dram__cycles_elapsed.avg.per_second': dramClock,
  'smsp__cycles_elapsed.avg.per_second': smClock,
};

interface SyntheticKernel {
  readonly name: string;
  readonly launches: number;
  readonly durationNs: number;
  readonly compute: number;
  readonly memory: number;
  /** FP32 FLOP/s, FP64 FLOP/s, DRAM bytes per second. */
  readonly fp32: number;
  readonly fp64: number;
  readonly dram: number;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
}

/** Four kernels: an FP32 GEMM near the compute roof, a memory-bound elementwise kernel (3 launches), an FP64 GEMM, and a copy without floating-point work. */
const kernels: readonly SyntheticKernel[] = [
  { name: 'sgemm_128x128_nn', launches: 1, durationNs: 851_200, compute: 72.4, memory: 35.1, fp32: 40e12, fp64: 0, dram: 0.6e12, grid: [132, 4, 1], block: [256, 1, 1] },
  { name: 'vectorized_elementwise_add', launches: 3, durationNs: 121_300, compute: 18.2, memory: 88.6, fp32: 0.24e12, fp64: 0, dram: 2.9e12, grid: [4096, 1, 1], block: [128, 1, 1] },
  { name: 'dgemm_64x64_tn', launches: 1, durationNs: 402_900, compute: 61.7, memory: 22.3, fp32: 0, fp64: 20e12, dram: 0.4e12, grid: [66, 2, 1], block: [128, 1, 1] },
  { name: 'copy_kernel', launches: 2, durationNs: 9_850, compute: 4.9, memory: 91.2, fp32: 0, fp64: 0, dram: 3.05e12, grid: [1024, 1, 1], block: [512, 1, 1] },
];

function values(kernel: SyntheticKernel, scale: number): MetricValues {
  const perCycle = (flops: number) => flops / smClock;
  return {
    ...peaks,
    'gpu__time_duration.sum': kernel.durationNs * scale,
    [sol[0]!]: kernel.compute,
    [sol[1]!]: kernel.memory,
    'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed': perCycle(kernel.fp32) * 0.02,
    'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed': perCycle(kernel.fp32) * 0.02,
    'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed': (perCycle(kernel.fp32) * 0.96) / 2,
    'smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed': 0,
    'smsp__sass_thread_inst_executed_op_dmul_pred_on.sum.per_cycle_elapsed': 0,
    'smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed': perCycle(kernel.fp64) / 2,
    'dram__bytes.sum.per_second': kernel.dram,
  };
}

const unitOf = (metric: string) =>
  metric === 'gpu__time_duration.sum' ? 'nanosecond' : metric.includes('pct_of_peak') ? 'percent' : metric.startsWith('dram__bytes') ? (metric.endsWith('per_second') ? 'byte/second' : 'byte/cycle') : metric.endsWith('per_second') ? 'cycle/second' : 'inst/cycle';

/**
 * A profile of seven launches of four kernels on an H100-like device with every metric the page
 * draws: durations, SpeedOfLight throughputs and ncu's roofline section in FP32 and FP64 (achieved
 * values and peaks), each launch with its grid and block. `scale` multiplies every duration.
 */
export function syntheticRooflineProfile(scale = 1): ProfileDocument {
  const dispatches: ProfileDocumentRow[] = [];
  for (let round = 0; round < 3; round += 1) {
    for (const kernel of kernels) {
      if (round >= kernel.launches) continue;
      dispatches.push({ dispatch: dispatches.length, kernel: kernel.name, grid: kernel.grid, block: kernel.block, range: null, replayed: true, passes: 12, wallMs: 80, bytesCopied: 1 << 20, metrics: values(kernel, scale) });
    }
  }
  return {
    schema: profileReportSchemaId,
    schemaVersion: profileReportVersion,
    driver: 'cuda',
    device: 'NVIDIA H100 80GB HBM3',
    chip: 'GH100',
    workload: 'capture:step (7 launches)',
    strategy: 'dirty-pages',
    measure: 'kernel',
    cacheControl: 'all',
    range: 1,
    passes: 12,
    warmRuns: 2,
    samples: 3,
    metrics: rooflineProfileMetrics,
    units: Object.fromEntries(rooflineProfileMetrics.map((metric) => [metric, unitOf(metric)])),
    setupMs: 812,
    wallMs: 1730,
    dispatches,
    ranges: [],
  };
}
