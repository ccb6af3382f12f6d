import { KreplayError } from '@kreplay/native';
import { compareProfiles, describeThresholds, formatProfileComparison } from '@kreplay/bench';
import type { LaunchMatch, ProfileDocument, ProfileThresholds } from '@kreplay/bench';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

/** What `kreplay compare` of two profiles takes. */
export interface CompareProfilesRequest {
  readonly paths: readonly [string, string];
  readonly profiles: readonly [ProfileDocument, ProfileDocument];
  readonly match: LaunchMatch;
  readonly thresholds: ProfileThresholds;
  readonly json: boolean;
}

const shown = (entry: { readonly kernel: string }) => (entry.kernel.length > 48 ? `${entry.kernel.slice(0, 45)}...` : entry.kernel);

/**
 * `kreplay compare a.json b.json` of two profiles, a kernel-level gate: prints per kernel and metric
 * the means over the matched launches and the change (a table, or with --json the comparison),
 * then fails (exit 1) when a metric moved beyond its threshold.
 * @throws UsageError (exit 2) when the profiles share no launch or no metric; KreplayError (exit 1)
 * naming the first metrics that moved; ArgumentError (exit 2) from compareProfiles.
 */
export function compareProfilesAction(io: CliIo, request: CompareProfilesRequest): void {
  const [pathA, pathB] = request.paths;
  const [a, b] = request.profiles;
  if (!a.metrics.some((metric) => b.metrics.includes(metric))) {
    throw new UsageError('compare', `${pathA} and ${pathB} measured no metric in common (${a.metrics.join(', ')}; ${b.metrics.join(', ')})`, 'Compare profiles taken with the same --metrics');
  }
  const comparison = compareProfiles(a, b, { match: request.match, thresholds: request.thresholds, sources: request.paths });
  if (comparison.launchesMatched === 0) {
    const kernels = (rows: readonly { readonly kernel?: string }[]) => [...new Set(rows.map((row) => row.kernel ?? '?'))].slice(0, 3).join(', ');
    throw new UsageError(
      'compare',
      `${pathA} and ${pathB} share no launch matched by ${request.match}, so nothing was compared (kernels: ${kernels(a.dispatches)}; ${kernels(b.dispatches)})`,
      request.match === 'grid' ? 'Compare profiles of the same program, or match by kernel name alone with --match name' : 'Compare profiles of the same program: launches match by kernel name and order',
    );
  }
  io.stdout(request.json ? `${JSON.stringify(comparison)}\n` : formatProfileComparison(comparison));
  const { moved } = comparison;
  if (moved.length === 0) return;
  const first = moved
    .slice(0, 3)
    .map((delta) => `${delta.metric} of ${shown(delta)} (${delta.change === null ? 'from 0' : `${delta.change > 0 ? '+' : ''}${(100 * delta.change).toFixed(1)}%`})`)
    .join('; ');
  const more = moved.length > 3 ? ` and ${moved.length - 3} more` : '';
  const message = `[cli] [compare] ${moved.length} kernel metric(s) moved beyond the threshold (${describeThresholds(request.thresholds)}): ${first}${more}. Investigate, or raise --threshold if the change is expected.`;
  throw new KreplayError({ packageName: 'cli', component: 'compare', message });
}
