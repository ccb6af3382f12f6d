import { textTable } from '../report/text-table.js';
import type { KernelMetricDelta, ProfileComparison, ProfileThresholds, UnmatchedProfileLaunch } from './compare-profiles.js';
import { formatMetricValue } from './metric-format.js';

/** A long (mangled) kernel name shortened in its middle to `width` characters, so that both ends still tell kernels apart. */
export function shortKernelName(name: string, width = 60): string {
  if (name.length <= width) return name;
  const tail = Math.floor((width - 3) / 3);
  return `${name.slice(0, width - 3 - tail)}...${name.slice(name.length - tail)}`;
}

/** `+6.5%`, `-0.3%`, `0.0%`, or `from 0` for a change from zero. */
export function formatChange(change: number | null): string {
  if (change === null) return 'from 0';
  const percent = 100 * change;
  return `${percent > 0 ? '+' : ''}${percent.toFixed(1)}%`;
}

const percent = (fraction: number) => `${Number((100 * fraction).toFixed(3))}%`;

/** `5% for every metric; gpu__time_duration.sum 3%`, or the metrics named when no threshold is for all. */
export function describeThresholds(thresholds: ProfileThresholds): string {
  const named = Object.entries(thresholds.byMetric).map(([metric, value]) => `${metric} ${percent(value)}`);
  if (thresholds.all === null) return `${named.join('; ')} (other metrics not gated)`;
  return [`${percent(thresholds.all)} for every metric`, ...named].join('; ');
}

const kernelLabel = (entry: { readonly kernel: string; readonly grid?: readonly number[]; readonly block?: readonly number[] }) =>
  entry.grid && entry.block ? `${shortKernelName(entry.kernel)} [${entry.grid.join('x')}/${entry.block.join('x')}]` : shortKernelName(entry.kernel);

/** The columns of the table: `launches` is the launches matched with a value of the metric in both profiles; `gate` says MOVED beyond the threshold. */
const headers = ['kernel', 'metric', 'launches', 'a', 'b', 'delta', 'gate'];

function deltaCells(delta: KernelMetricDelta): string[] {
  return [kernelLabel(delta), delta.metric, String(delta.launches), formatMetricValue(delta.a, delta.unit), formatMetricValue(delta.b, delta.unit), formatChange(delta.change), delta.moved ? 'MOVED' : delta.threshold === null ? 'not gated' : ''];
}

function unmatchedLines(list: readonly UnmatchedProfileLaunch[], where: string): string[] {
  if (list.length === 0) return [];
  return ['', `launches only in ${where} (not compared):`, ...list.map((launch) => `  ${kernelLabel(launch)}: launch ${launch.occurrence + 1} of its kernel, dispatch ${launch.dispatch}`)];
}

/**
 * The terminal text of a profile comparison: what was compared, one row per kernel and metric
 * (kernel, metric, launches matched, a, b, delta %, and MOVED beyond its threshold), then the
 * moved ones again, the launches and metrics found in one profile only.
 */
export function formatProfileComparison(comparison: ProfileComparison): string {
  const { a, b, deltas, moved } = comparison;
  const kernels = new Set(deltas.map((delta) => `${delta.kernel}\u0000${delta.grid?.join('x') ?? ''}\u0000${delta.block?.join('x') ?? ''}`)).size;
  const lines = [
    `a: ${a.source}: ${a.device} (${a.chip}), ${a.workload}, ${a.launches} launches`,
    `b: ${b.source}: ${b.device} (${b.chip}), ${b.workload}, ${b.launches} launches`,
    `matched ${comparison.launchesMatched} launches of ${kernels} kernel${kernels === 1 ? '' : 's'} by ${comparison.match === 'grid' ? 'name, grid and block' : 'name'} (ncu --app-replay-match ${comparison.match}); threshold ${describeThresholds(comparison.thresholds)}`,
    `${moved.length} kernel metric${moved.length === 1 ? '' : 's'} moved beyond the threshold`,
    '',
    textTable(headers, deltas.map(deltaCells), 2),
  ];
  if (moved.length > 0) lines.push('', 'moved beyond the threshold:', textTable(headers, moved.map(deltaCells), 2));
  lines.push(...unmatchedLines(comparison.onlyInA, 'a'), ...unmatchedLines(comparison.onlyInB, 'b'));
  if (comparison.metricsOnlyInA.length > 0) lines.push('', `metrics only in a (not compared): ${comparison.metricsOnlyInA.join(', ')}`);
  if (comparison.metricsOnlyInB.length > 0) lines.push('', `metrics only in b (not compared): ${comparison.metricsOnlyInB.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
