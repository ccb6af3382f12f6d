import { benchArgumentError } from '../argument-error.js';
import { kreplaySchemaId } from '../report/json-schema-parts.js';
import { kernelNameOf, summarizeKernels } from './kernel-summary.js';
import { matchLaunches, rowsWithoutShape } from './match-launches.js';
import type { LaunchMatch } from './match-launches.js';
import type { LaunchDimensions, ProfileDocument, ProfileDocumentRow } from './profile-document.js';

/** The version of the profile comparison this package writes. */
export const profileComparisonVersion = 1;
/** The `schema` of a profile comparison (`kreplay compare a.json b.json --json` of two profiles). */
export const profileComparisonSchemaId = kreplaySchemaId('profile-comparison', profileComparisonVersion);

/**
 * When a kernel's metric has moved too far: `all` for every metric (null: none but those named),
 * `byMetric` for one metric, overriding `all`. Fractions: 0.05 is 5%.
 */
export interface ProfileThresholds {
  readonly all: number | null;
  readonly byMetric: Readonly<Record<string, number>>;
}

/** The thresholds when none is given: 10% for every metric, as `compare` of bench reports. */
export const defaultProfileThresholds: ProfileThresholds = { all: 0.1, byMetric: {} };

/** One metric of one kernel in both profiles: the means over its matched launches. */
export interface KernelMetricDelta {
  readonly kernel: string;
  /** With `grid` matching: the launch shape the launches share. */
  readonly grid?: LaunchDimensions;
  readonly block?: LaunchDimensions;
  /** Matched launches with a value of this metric in both profiles. */
  readonly launches: number;
  readonly metric: string;
  readonly unit: string;
  readonly a: number;
  readonly b: number;
  /** (b - a) / |a|: 0.05 is 5% more; null when a is 0 and b is not (0 when both are). */
  readonly change: number | null;
  /** The threshold that applies, or null when the metric is not gated. */
  readonly threshold: number | null;
  /** Moved by more than the threshold, either way (from zero counts as beyond any threshold). */
  readonly moved: boolean;
}

/** A launch found in one profile only. */
export interface UnmatchedProfileLaunch {
  readonly kernel: string;
  readonly dispatch: number;
  /** Its place among the launches of its kernel (with `grid`: of its kernel and shape), from 0. */
  readonly occurrence: number;
  readonly grid?: LaunchDimensions;
  readonly block?: LaunchDimensions;
}

/** Where a compared profile came from. */
export interface ComparedProfile {
  readonly source: string;
  readonly device: string;
  readonly chip: string;
  readonly workload: string;
  readonly launches: number;
}

/** What {@link compareProfiles} found: per kernel and metric, the change from `a` to `b`. */
export interface ProfileComparison {
  readonly schema: typeof profileComparisonSchemaId;
  readonly schemaVersion: typeof profileComparisonVersion;
  readonly a: ComparedProfile;
  readonly b: ComparedProfile;
  readonly match: LaunchMatch;
  readonly thresholds: ProfileThresholds;
  readonly launchesMatched: number;
  /** Kernels by `a`'s total duration (longest first), then metrics in `a`'s order. */
  readonly deltas: readonly KernelMetricDelta[];
  /** The deltas that moved beyond their threshold. */
  readonly moved: readonly KernelMetricDelta[];
  readonly onlyInA: readonly UnmatchedProfileLaunch[];
  readonly onlyInB: readonly UnmatchedProfileLaunch[];
  /** Metrics one profile measured and the other did not (not compared). */
  readonly metricsOnlyInA: readonly string[];
  readonly metricsOnlyInB: readonly string[];
}

/** What {@link compareProfiles} takes besides the profiles. */
export interface CompareProfilesOptions {
  /** Default `name`. */
  readonly match?: LaunchMatch;
  /** Default {@link defaultProfileThresholds}. */
  readonly thresholds?: ProfileThresholds;
  /** Names of the two profiles in the result (file paths); default `a` and `b`. */
  readonly sources?: readonly [string, string];
}

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const shapeOf = (row: ProfileDocumentRow, match: LaunchMatch) => (match === 'grid' && row.grid && row.block ? { grid: row.grid, block: row.block } : {});

function checkThreshold(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw benchArgumentError('compare', 'thresholds', `the threshold ${name} must be a non-negative fraction, got ${String(value)}`, 'Pass e.g. 0.05 for 5%');
  }
}

/** The change from a to b as a fraction of a; null from zero to something. */
export function relativeChange(a: number, b: number): number | null {
  if (a === 0) return b === 0 ? 0 : null;
  return (b - a) / Math.abs(a);
}

function described(profile: ProfileDocument, source: string): ComparedProfile {
  return { source, device: profile.device, chip: profile.chip, workload: profile.workload, launches: profile.dispatches.length };
}

/**
 * Compares two profiles kernel by kernel: matches their launches (`options.match`, after ncu's
 * `--app-replay-match`), then for every kernel (every kernel and launch shape, with `grid`) and
 * every metric both measured, the mean over its matched launches in `a` and in `b` and the relative
 * change. A change beyond the metric's threshold, up or down, has `moved`; launches found in one
 * profile only are listed, not compared.
 * @throws ArgumentError when a threshold is not a non-negative number, when a per-metric threshold
 * names a metric neither profile measured, or with `grid` when a profile's rows have no launch shape.
 */
export function compareProfiles(a: ProfileDocument, b: ProfileDocument, options: CompareProfilesOptions = {}): ProfileComparison {
  const match = options.match ?? 'name';
  const thresholds = options.thresholds ?? defaultProfileThresholds;
  const [sourceA, sourceB] = options.sources ?? ['a', 'b'];
  if (thresholds.all !== null) checkThreshold(thresholds.all, 'for every metric');
  for (const [metric, value] of Object.entries(thresholds.byMetric)) {
    checkThreshold(value, `of ${metric}`);
    if (!a.metrics.includes(metric) && !b.metrics.includes(metric)) {
      throw benchArgumentError('compare', 'thresholds', `a threshold names ${metric}, which neither profile measured (they measured ${[...new Set([...a.metrics, ...b.metrics])].join(', ')})`, 'Name a metric of the profiles');
    }
  }
  if (match === 'grid') {
    for (const [profile, source] of [[a, sourceA], [b, sourceB]] as const) {
      const without = rowsWithoutShape(profile.dispatches);
      if (without > 0) {
        throw benchArgumentError('compare', 'match', `${source}: ${without} of ${profile.dispatches.length} launches have no launch shape (grid, block) to match by grid`, 'Match by name, or profile a capture with this kreplay (its rows carry the shapes)');
      }
    }
  }
  const metrics = a.metrics.filter((metric) => b.metrics.includes(metric));
  const matched = matchLaunches(a.dispatches, b.dispatches, match);
  const groups = new Map<string, { a: ProfileDocumentRow; b: ProfileDocumentRow }[]>();
  for (const pair of matched.pairs) {
    const group = groups.get(pair.key);
    if (group) group.push(pair);
    else groups.set(pair.key, [pair]);
  }
  const rank = new Map(summarizeKernels(a).map((kernel) => [kernel.name, kernel.rank]));
  const ordered = [...groups.values()].sort((x, y) => rank.get(kernelNameOf(x[0]!.a))! - rank.get(kernelNameOf(y[0]!.a))! || x[0]!.a.dispatch - y[0]!.a.dispatch);
  const deltas: KernelMetricDelta[] = [];
  for (const pairs of ordered) {
    const first = pairs[0]!.a;
    for (const metric of metrics) {
      const both = pairs.filter((pair) => finite(pair.a.metrics?.[metric]) && finite(pair.b.metrics?.[metric]));
      if (both.length === 0) continue;
      const valueA = mean(both.map((pair) => pair.a.metrics![metric]!));
      const valueB = mean(both.map((pair) => pair.b.metrics![metric]!));
      const change = relativeChange(valueA, valueB);
      const threshold = Object.hasOwn(thresholds.byMetric, metric) ? thresholds.byMetric[metric]! : thresholds.all;
      deltas.push({
        kernel: kernelNameOf(first),
        ...shapeOf(first, match),
        launches: both.length,
        metric,
        unit: a.units[metric] ?? b.units[metric] ?? '',
        a: valueA,
        b: valueB,
        change,
        threshold,
        moved: threshold !== null && (change === null || Math.abs(change) > threshold),
      });
    }
  }
  const unmatched = (list: typeof matched.onlyInA): UnmatchedProfileLaunch[] =>
    list.map(({ row, occurrence }) => ({ kernel: kernelNameOf(row), dispatch: row.dispatch, occurrence, ...shapeOf(row, match) }));
  return {
    schema: profileComparisonSchemaId,
    schemaVersion: profileComparisonVersion,
    a: described(a, sourceA),
    b: described(b, sourceB),
    match,
    thresholds,
    launchesMatched: matched.pairs.length,
    deltas,
    moved: deltas.filter((delta) => delta.moved),
    onlyInA: unmatched(matched.onlyInA),
    onlyInB: unmatched(matched.onlyInB),
    metricsOnlyInA: a.metrics.filter((metric) => !b.metrics.includes(metric)),
    metricsOnlyInB: b.metrics.filter((metric) => !a.metrics.includes(metric)),
  };
}
