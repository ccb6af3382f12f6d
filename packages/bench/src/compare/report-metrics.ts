import { exactBytes } from '../format-units.js';
import type { BenchReport } from '../report/bench-report.js';

/** Which way a metric gets worse. */
export type MetricDirection = 'lower-is-better' | 'higher-is-better';

/** One measured value of a report, named so that two reports can be matched. */
export interface ReportMetric {
  /** The configuration key of the row, fit or ceiling it belongs to. */
  readonly key: string;
  readonly metric: string;
  readonly direction: MetricDirection;
  readonly value: number;
  /** Its standard error, when the value is a fitted coefficient. */
  readonly standardError: number | null;
}

/**
 * The metrics `compare` gates on: per row, wall time and bytes copied per dispatch, the achieved
 * snapshot bandwidth, and the ratios to the reference and to the copy ceiling (measured in the same
 * run, so steadier across machines than absolute times); per fit, the fixed and per-pass costs; per
 * ceiling, each path's bandwidth.
 */
export function reportMetrics(report: BenchReport): ReportMetric[] {
  const metrics: ReportMetric[] = [];
  const add = (key: string, metric: string, direction: MetricDirection, value: number | null | undefined, standardError: number | null = null) => {
    if (typeof value === 'number' && Number.isFinite(value)) metrics.push({ key, metric, direction, value, standardError });
  };
  for (const row of report.rows) {
    add(row.key, 'wall time per dispatch (ms)', 'lower-is-better', row.summary.meanDispatchMs);
    if (row.bytesMeasured) add(row.key, 'bytes copied per dispatch', 'lower-is-better', row.summary.bytesPerDispatch.copied);
    add(row.key, 'snapshot bandwidth (B/s)', 'higher-is-better', row.summary.bandwidth.snapshotBytesPerSecond);
    if (row.variant !== 'reference') add(row.key, 'time / reference', 'lower-is-better', row.ratios.vsReference?.time);
    add(row.key, 'snapshot time / copy ceiling', 'lower-is-better', row.ratios.vsCopyCeiling?.hostLink);
  }
  for (const fit of report.fits) {
    add(fit.key, 'fixed cost (ms)', 'lower-is-better', fit.fixedMs, fit.fixedStandardErrorMs);
    add(fit.key, 'per-pass cost (ms)', 'lower-is-better', fit.perPassMs, fit.perPassStandardErrorMs);
  }
  for (const ceiling of report.baselines.copyCeilings) {
    for (const path of ceiling.paths) add(`ceiling/${exactBytes(ceiling.footprintBytes)}`, `${path.path} bandwidth (B/s)`, 'higher-is-better', path.bytesPerSecond);
  }
  return metrics;
}
