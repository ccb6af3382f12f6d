import { durationMetric } from './metric-format.js';
import type { MetricValues, ProfileDocument, ProfileDocumentRow } from './profile-document.js';
import { achievedDramBytesPerSecond, achievedFlopsPerSecond, precisions, rooflinePeak } from './roofline.js';
import type { Precision } from './roofline.js';

/** The name rows without a kernel name (the generated workloads, `scatter` and `ptx:`) are grouped under. */
export const unnamedKernel = '(unnamed)';

/** A row's kernel name, or {@link unnamedKernel}. */
export const kernelNameOf = (row: ProfileDocumentRow): string => row.kernel ?? unnamedKernel;

/** A kernel's place on the roofline in one precision. */
export interface RooflinePoint {
  readonly precision: Precision;
  /** Achieved FLOP/s, the mean over its launches weighted by their durations. */
  readonly flopsPerSecond: number;
  readonly dramBytesPerSecond: number;
  /** FLOP per DRAM byte; null when it moved no DRAM byte. */
  readonly intensity: number | null;
}

/** One kernel of a profile: its launches and their metrics together. */
export interface KernelSummary {
  readonly name: string;
  /** Its place by total duration, from 1 (the longest). */
  readonly rank: number;
  readonly launches: number;
  /** The `dispatch` of each launch, in order. */
  readonly dispatches: readonly number[];
  /** `gpu__time_duration.sum` over its launches, in nanoseconds; null when no launch has it. */
  readonly totalDuration: number | null;
  readonly meanDuration: number | null;
  /** Each metric's mean over the launches that have a value. */
  readonly means: Readonly<Record<string, number>>;
  /** Where the metrics allow (see roofline.ts): its achieved FLOP/s and DRAM traffic, per precision it did floating-point work in. */
  readonly roofline: readonly RooflinePoint[];
}

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** The mean of `pairs` weighted by their weights when every pair has one, else the plain mean; null when empty. */
function weightedMean(pairs: readonly { value: number; weight: number | null }[]): number | null {
  if (pairs.length === 0) return null;
  const weighted = pairs.every((pair) => pair.weight !== null && pair.weight > 0);
  const total = pairs.reduce((sum, pair) => sum + (weighted ? pair.weight! : 1), 0);
  return pairs.reduce((sum, pair) => sum + pair.value * (weighted ? pair.weight! : 1), 0) / total;
}

function rooflineOf(measured: readonly MetricValues[]): RooflinePoint[] {
  const points: RooflinePoint[] = [];
  for (const precision of precisions) {
    const flops: { value: number; weight: number | null }[] = [];
    const bytes: { value: number; weight: number | null }[] = [];
    for (const values of measured) {
      const work = achievedFlopsPerSecond(values, precision);
      const traffic = achievedDramBytesPerSecond(values);
      if (work === null || traffic === null) continue;
      const duration = values[durationMetric];
      const weight = finite(duration) ? duration : null;
      flops.push({ value: work, weight });
      bytes.push({ value: traffic, weight });
    }
    const flopsPerSecond = weightedMean(flops);
    const dramBytesPerSecond = weightedMean(bytes);
    // No work in this precision: no point, rather than one at zero on a logarithmic axis.
    if (flopsPerSecond === null || dramBytesPerSecond === null || !(flopsPerSecond > 0)) continue;
    points.push({ precision, flopsPerSecond, dramBytesPerSecond, intensity: dramBytesPerSecond > 0 ? flopsPerSecond / dramBytesPerSecond : null });
  }
  return points;
}

/**
 * The kernels of a profile, sorted by total duration (`gpu__time_duration.sum` over their
 * launches), longest first; kernels without a duration follow in the order of their first launch.
 * Rows are grouped by kernel name (rows without one under {@link unnamedKernel}).
 */
export function summarizeKernels(profile: ProfileDocument): KernelSummary[] {
  const groups = new Map<string, ProfileDocumentRow[]>();
  for (const row of profile.dispatches) {
    const name = kernelNameOf(row);
    const group = groups.get(name);
    if (group) group.push(row);
    else groups.set(name, [row]);
  }
  const kernels = [...groups.entries()].map(([name, rows]) => {
    const measured = rows.map((row) => row.metrics).filter((values): values is MetricValues => values !== null);
    const means: Record<string, number> = {};
    for (const metric of profile.metrics) {
      const values = measured.map((each) => each[metric]).filter(finite);
      if (values.length > 0) means[metric] = values.reduce((sum, value) => sum + value, 0) / values.length;
    }
    const durations = measured.map((values) => values[durationMetric]).filter(finite);
    const totalDuration = durations.length === 0 ? null : durations.reduce((sum, value) => sum + value, 0);
    return {
      name,
      launches: rows.length,
      dispatches: rows.map((row) => row.dispatch),
      totalDuration,
      meanDuration: totalDuration === null ? null : totalDuration / durations.length,
      means,
      roofline: rooflineOf(measured),
    };
  });
  // Stable: kernels without a duration keep the order of their first launch.
  kernels.sort((a, b) => (b.totalDuration ?? -1) - (a.totalDuration ?? -1));
  return kernels.map((kernel, index) => ({ ...kernel, rank: index + 1 }));
}
