import { benchArgumentError } from '../argument-error.js';
import type { BenchReport } from '../report/bench-report.js';
import { kreplaySchemaId } from '../report/json-schema-parts.js';
import { reportMetrics } from './report-metrics.js';
import type { MetricDirection } from './report-metrics.js';

/** The version of the comparison of two bench reports this package writes. */
export const benchComparisonVersion = 1;
/** The `schema` of a comparison of two bench reports (`kreplay compare base.json head.json --json`). */
export const benchComparisonSchemaId = kreplaySchemaId('bench-comparison', benchComparisonVersion);

/** One metric present in both reports. */
export interface MetricChange {
  readonly key: string;
  readonly metric: string;
  readonly direction: MetricDirection;
  readonly base: number;
  readonly head: number;
  /** Relative change in the bad direction: 0.25 = 25% worse, negative = better. Infinity from a zero base. */
  readonly worsening: number;
  /** Worse by more than the threshold (and, for fitted values, by more than twice their combined standard error). */
  readonly regressed: boolean;
}

/** What `compare` found. */
export interface ReportComparison {
  readonly schema: typeof benchComparisonSchemaId;
  readonly schemaVersion: typeof benchComparisonVersion;
  readonly threshold: number;
  readonly changes: readonly MetricChange[];
  readonly regressions: readonly MetricChange[];
  /** Keys of rows, fits or ceilings found in only one of the reports. */
  readonly onlyInBase: readonly string[];
  readonly onlyInHead: readonly string[];
}

/**
 * Compares every metric of `head` with the same metric of `base` (matched by configuration key),
 * direction-aware: a time or byte count that grew, or a bandwidth that fell, by more than
 * `threshold` (a fraction, default 0.1) is a regression. A fitted coefficient must also move by more
 * than twice its combined standard error, so noise alone does not fail a gate.
 * @throws ArgumentError when the threshold is not a non-negative number.
 */
export function compareReports(base: BenchReport, head: BenchReport, options: { readonly threshold?: number } = {}): ReportComparison {
  const threshold = options.threshold ?? 0.1;
  if (typeof threshold !== 'number' || !(threshold >= 0) || !Number.isFinite(threshold)) {
    throw benchArgumentError('compare', 'threshold', `threshold must be a non-negative fraction, got ${String(threshold)}`, 'Pass e.g. 0.1 for 10%');
  }
  const baseMetrics = reportMetrics(base);
  const headMetrics = new Map(reportMetrics(head).map((metric) => [`${metric.key}\u0000${metric.metric}`, metric]));
  const changes: MetricChange[] = [];
  for (const before of baseMetrics) {
    const after = headMetrics.get(`${before.key}\u0000${before.metric}`);
    if (!after) continue;
    const sign = before.direction === 'lower-is-better' ? 1 : -1;
    const delta = sign * (after.value - before.value);
    const worsening = before.value === 0 ? (delta > 0 ? Infinity : delta < 0 ? -Infinity : 0) : delta / Math.abs(before.value);
    const noise = before.standardError !== null && after.standardError !== null ? 2 * Math.hypot(before.standardError, after.standardError) : 0;
    changes.push({ key: before.key, metric: before.metric, direction: before.direction, base: before.value, head: after.value, worsening, regressed: worsening > threshold && delta > noise });
  }
  const keys = (report: BenchReport) => new Set(reportMetrics(report).map((metric) => metric.key));
  const baseKeys = keys(base);
  const headKeys = keys(head);
  return {
    schema: benchComparisonSchemaId,
    schemaVersion: benchComparisonVersion,
    threshold,
    changes,
    regressions: changes.filter((change) => change.regressed),
    onlyInBase: [...baseKeys].filter((key) => !headKeys.has(key)),
    onlyInHead: [...headKeys].filter((key) => !baseKeys.has(key)),
  };
}
