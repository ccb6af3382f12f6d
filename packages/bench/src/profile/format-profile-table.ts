import { textTable } from '../report/text-table.js';
import { shortKernelName } from './format-profile-comparison.js';
import { summarizeKernels } from './kernel-summary.js';
import { formatDuration } from './metric-format.js';
import type { ProfileDocument } from './profile-document.js';
import { speedOfLightMetrics } from './speed-of-light.js';

/**
 * The terminal text of a profile for `kreplay report`: what was profiled, then one row per kernel
 * sorted by total duration (launches, total and mean duration, share of the time, and the
 * speed-of-light throughputs the profile has, % of peak).
 */
export function formatProfileTable(profile: ProfileDocument): string {
  const kernels = summarizeKernels(profile);
  const total = kernels.reduce((sum, kernel) => sum + (kernel.totalDuration ?? 0), 0);
  const bars = speedOfLightMetrics.filter((each) => profile.metrics.includes(each.metric));
  const rows = kernels.map((kernel) => [
    String(kernel.rank),
    shortKernelName(kernel.name),
    String(kernel.launches),
    kernel.totalDuration === null ? '-' : formatDuration(kernel.totalDuration),
    kernel.meanDuration === null ? '-' : formatDuration(kernel.meanDuration),
    kernel.totalDuration === null || total === 0 ? '-' : `${((100 * kernel.totalDuration) / total).toFixed(1)}%`,
    ...bars.map((each) => (kernel.means[each.metric] === undefined ? '-' : `${kernel.means[each.metric]!.toFixed(1)}%`)),
  ]);
  const header = `${profile.device} (${profile.chip}), ${profile.workload}: ${kernels.length} kernels, ${profile.dispatches.length} launches, ${profile.metrics.length} metrics`;
  const table = textTable(['#', 'kernel', 'launches', 'total', 'mean', 'share', ...bars.map((each) => each.label.replace(' throughput', ''))], rows, 2);
  return `${header}\n\n${table}\n`;
}
