import { chartLibrarySource } from '../html/chart-library.js';
import { htmlPage } from '../html/html-page.js';
import { escapeHtml } from '../html/html-tables.js';
import { kernelNameOf, summarizeKernels } from './kernel-summary.js';
import type { KernelSummary } from './kernel-summary.js';
import { durationMetric, formatDuration, formatMetricValue, formatWithPrefix } from './metric-format.js';
import type { ProfileDocument } from './profile-document.js';
import { profilePageScript } from './profile-page-script.js';
import { dramBytesPerSecondMetric, precisions, rooflineMetrics, rooflinePeak } from './roofline.js';
import type { Precision } from './roofline.js';
import { speedOfLightMetrics } from './speed-of-light.js';

const style = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1500px; }
h1 { font-size: 20px; margin-bottom: 4px; } h2 { font-size: 16px; margin-top: 28px; }
.note { color: #555; margin: 2px 0 6px; font-size: 12px; } .missing { color: #8a4b00; }
code { font-size: 12px; background: #f4f4f4; padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
td, th { border: 1px solid #ddd; padding: 3px 6px; text-align: right; vertical-align: middle; }
th { background: #f6f6f6; } td.name, th.name, .facts td, .facts th { text-align: left; }
td.name { font-family: ui-monospace, monospace; max-width: 560px; overflow-wrap: anywhere; }
.bar { position: relative; width: 140px; height: 16px; background: #eee; border-radius: 3px; }
.bar .fill { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 3px; }
.bar .fill.compute { background: #4c8bd6; } .bar .fill.memory { background: #e0923a; }
.bar span { position: absolute; right: 4px; top: 0; font-size: 11px; line-height: 16px; }
.controls { margin: 8px 0; } .controls input { font: inherit; padding: 3px 6px; width: 320px; }
.chart { position: relative; height: 460px; max-width: 980px; border: 1px solid #ddd; border-radius: 6px; padding: 8px; }
tr[hidden] { display: none; }
`;

const precisionLabel: Readonly<Record<Precision, string>> = { single: 'FP32', double: 'FP64' };

/** A speed-of-light bar: the value's share of 100% of peak, and the value. */
function bar(value: number | undefined, metric: string, className: string): string {
  if (value === undefined) return '-';
  const width = Math.min(100, Math.max(0, value));
  return `<div class="bar" title="${escapeHtml(`${metric}: ${value.toFixed(2)} % of peak`)}"><div class="fill ${className}" style="width:${width.toFixed(2)}%"></div><span>${value.toFixed(1)}%</span></div>`;
}

function facts(profile: ProfileDocument): string {
  const rows: [string, string][] = [
    ['device', `${profile.device} (${profile.chip}), driver ${profile.driver}`],
    ['workload', profile.workload],
    ['measured', `${profile.measure}; ${profile.passes} pass${profile.passes === 1 ? '' : 'es'} per dispatch; strategy ${profile.strategy}; cache control ${profile.cacheControl}; range ${profile.range}`],
    ['samples', `${profile.samples} per launch (metrics are medians)${profile.warmRuns > 0 ? `, after ${profile.warmRuns} unprofiled run${profile.warmRuns === 1 ? '' : 's'}` : ''}`],
    ['time', `CUPTI setup ${profile.setupMs.toFixed(0)} ms, profiling ${(profile.wallMs / 1000).toFixed(1)} s for ${profile.dispatches.length} launches`],
    ...(profile.conditions === undefined ? [] : [['conditions', Object.entries(profile.conditions).map(([key, value]) => `${key} ${JSON.stringify(value)}`).join('; ')] as [string, string]]),
    ...(profile.notes ?? []).map((note): [string, string] => ['note', note]),
    ['metrics', profile.metrics.join(', ')],
  ];
  return `<table class="facts">${rows.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`).join('\n')}</table>`;
}

const code = (names: readonly string[]) => names.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ');

function kernelTable(profile: ProfileDocument, kernels: readonly KernelSummary[]): string {
  const timed = kernels.some((kernel) => kernel.totalDuration !== null);
  const total = kernels.reduce((sum, kernel) => sum + (kernel.totalDuration ?? 0), 0);
  const bars = speedOfLightMetrics.filter((each) => profile.metrics.includes(each.metric));
  const roofed = precisions.filter((precision) => kernels.some((kernel) => kernel.roofline.some((point) => point.precision === precision)));
  const head = [
    '<th>#</th><th class="name">kernel</th><th>launches</th>',
    timed ? '<th>total duration</th><th>mean duration</th><th>share of time</th>' : '',
    ...bars.map((each) => `<th title="${escapeHtml(each.metric)}">${escapeHtml(each.label)}<br>% of peak</th>`),
    ...roofed.map((precision) => `<th>${precisionLabel[precision]}<br>achieved</th><th>${precisionLabel[precision]}<br>FLOP/byte</th>`),
  ].join('');
  const body = kernels.map((kernel) => {
    const cells = [
      `<td>${kernel.rank}</td><td class="name">${escapeHtml(kernel.name)}</td><td>${kernel.launches}</td>`,
      timed
        ? `<td>${kernel.totalDuration === null ? '-' : formatDuration(kernel.totalDuration)}</td><td>${kernel.meanDuration === null ? '-' : formatDuration(kernel.meanDuration)}</td><td>${kernel.totalDuration === null || total === 0 ? '-' : `${((100 * kernel.totalDuration) / total).toFixed(1)} %`}</td>`
        : '',
      ...bars.map((each) => `<td>${bar(kernel.means[each.metric], each.metric, each.className)}</td>`),
      ...roofed.map((precision) => {
        const point = kernel.roofline.find((each) => each.precision === precision);
        return `<td>${point ? formatWithPrefix(point.flopsPerSecond, 'FLOP/s') : '-'}</td><td>${point?.intensity == null ? '-' : formatMetricValue(point.intensity, '')}</td>`;
      }),
    ];
    return `<tr data-name="${escapeHtml(kernel.name.toLowerCase())}">${cells.join('')}</tr>`;
  });
  const notes = [
    timed
      ? `Sorted by total duration: <code>${durationMetric}</code> summed over each kernel's launches, in the unit that fits; mean: per launch.`
      : `<span class="missing">No <code>${durationMetric}</code> in this profile: kernels are in the order of their first launch, without durations. Add it to <code>--metrics</code>.</span>`,
    bars.length > 0 ? `Bars: ncu's SpeedOfLight section, the mean over each kernel's launches against 100% of the peak sustained rate: ${bars.map((each) => `${escapeHtml(each.label)} <code>${each.metric}</code>`).join(', ')}.` : '',
    bars.length < speedOfLightMetrics.length
      ? `<span class="missing">Speed-of-light bars need ${code(speedOfLightMetrics.map((each) => each.metric))} (ncu's SpeedOfLight section); this profile lacks ${code(speedOfLightMetrics.filter((each) => !profile.metrics.includes(each.metric)).map((each) => each.metric))}.</span>`
      : '',
  ].filter((note) => note !== '');
  return `${notes.map((note) => `<p class="note">${note}</p>`).join('\n')}
<div class="controls"><label>Filter kernels by name: <input id="filter" type="search" placeholder="part of a kernel name, e.g. gemm" autocomplete="off"></label> <span id="shown" class="note"></span></div>
<table id="kernels"><thead><tr>${head}</tr></thead><tbody>
${body.join('\n')}
</tbody></table>`;
}

/** The mean of the roof over the launches that carry its metrics, or null. */
function roofOf(profile: ProfileDocument, precision: Precision): { flopsPerSecond: number; dramBytesPerSecond: number } | null {
  const peaks = profile.dispatches.map((row) => (row.metrics === null ? null : rooflinePeak(row.metrics, precision))).filter((peak) => peak !== null);
  if (peaks.length === 0) return null;
  const mean = (pick: (peak: (typeof peaks)[number]) => number) => peaks.reduce((sum, peak) => sum + pick(peak), 0) / peaks.length;
  return { flopsPerSecond: mean((peak) => peak.flopsPerSecond), dramBytesPerSecond: mean((peak) => peak.dramBytesPerSecond) };
}

function rooflineSection(profile: ProfileDocument, kernels: readonly KernelSummary[]): { html: string; data: unknown } {
  const single = rooflineMetrics('single');
  const points = kernels.flatMap((kernel) => kernel.roofline.map((point) => ({ rank: kernel.rank, name: kernel.name, ...point })));
  if (points.length === 0) {
    const lacking = [...single.achieved, ...single.peak].filter((metric) => !profile.metrics.includes(metric));
    return {
      html: `<p class="note missing">No roofline: it needs achieved FLOP/s and DRAM traffic per kernel, the metrics of ncu's SpeedOfLight_RooflineChart section. Achieved FLOP/s = (FADD + FMUL + 2 &times; FFMA thread instructions per cycle) &times; SM clock: ${code(single.achieved.slice(0, 4))}; DRAM traffic: <code>${dramBytesPerSecondMetric}</code>. The roof: ${code(single.peak)}. (The instruction counts <code>smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum</code> with <code>${durationMetric}</code> and <code>dram__bytes.sum</code> do as well; <code>d</code> in place of <code>f</code> for FP64.) This profile lacks ${code(lacking)}.</p>
<p class="note">Profile with: <code>--metrics ${escapeHtml([...new Set([...profile.metrics, ...single.achieved, ...single.peak])].join(','))}</code></p>`,
      data: null,
    };
  }
  const roofs = precisions.map((precision) => ({ precision, label: precisionLabel[precision], roof: roofOf(profile, precision) })).filter((each) => points.some((point) => point.precision === each.precision));
  const unroofed = roofs.filter((each) => each.roof === null);
  const off = points.filter((point) => point.intensity === null || !(point.intensity > 0));
  const idle = kernels.filter((kernel) => kernel.roofline.length === 0);
  const notes = [
    "Each kernel's achieved FLOP/s against its arithmetic intensity (FLOP per DRAM byte), as ncu's SpeedOfLight_RooflineChart section computes them, averaged over its launches by duration; points are labelled with the kernel's # in the table above.",
    unroofed.length > 0 ? `<span class="missing">The roof${unroofed.length > 1 ? 's are' : ' is'} not drawn for ${unroofed.map((each) => each.label).join(' and ')}: it needs ${code(single.peak)} (<code>dfma</code> for FP64).</span>` : '',
    off.length > 0 ? `${off.length} point${off.length === 1 ? '' : 's'} without DRAM traffic cannot sit on the logarithmic axes: ${escapeHtml(off.map((point) => `#${point.rank} ${precisionLabel[point.precision]}`).join(', '))}.` : '',
    idle.length > 0 ? `No point for ${idle.length} kernel${idle.length === 1 ? '' : 's'} without floating-point work (or without these metrics): ${escapeHtml(idle.map((kernel) => `#${kernel.rank}`).join(', '))}.` : '',
  ].filter((note) => note !== '');
  return {
    html: `${notes.map((note) => `<p class="note">${note}</p>`).join('\n')}
<div class="chart"><canvas id="roofline"></canvas></div>`,
    data: {
      points: points.filter((point) => !off.includes(point)).map((point) => ({ rank: point.rank, name: point.name, precision: precisionLabel[point.precision], x: point.intensity, y: point.flopsPerSecond })),
      roofs: roofs.filter((each) => each.roof !== null).map((each) => ({ precision: each.label, flopsPerSecond: each.roof!.flopsPerSecond, dramBytesPerSecond: each.roof!.dramBytesPerSecond })),
    },
  };
}

function launchTable(profile: ProfileDocument): string {
  const head = ['dispatch', 'kernel', 'range', 'replayed', 'passes', ...profile.metrics].map((name, index) => `<th${index === 1 ? ' class="name"' : ''}>${escapeHtml(name)}</th>`).join('');
  const body = profile.dispatches.map((row) => {
    const values = profile.metrics.map((metric) => `<td>${escapeHtml(formatMetricValue(row.metrics?.[metric], profile.units[metric] ?? ''))}</td>`);
    const why = row.error ?? row.declineReason;
    const name = kernelNameOf(row);
    return `<tr data-name="${escapeHtml(name.toLowerCase())}"><td>${row.dispatch}</td><td class="name">${escapeHtml(name)}</td><td>${row.range ?? '-'}</td><td${why ? ` title="${escapeHtml(why)}"` : ''}>${row.replayed ? 'yes' : 'no'}</td><td>${row.passes}</td>${values.join('')}</tr>`;
  });
  return `<details><summary>Every launch with every metric (${profile.dispatches.length})</summary>
<table id="launches"><thead><tr>${head}</tr></thead><tbody>
${body.join('\n')}
</tbody></table></details>`;
}

/**
 * A profile (`kreplay profile --json`) as one self-contained HTML page, no network: what was
 * profiled and how; the kernels sorted by total duration, each with its launches, durations in the
 * unit ncu prints, and speed-of-light bars (ncu's SpeedOfLight section: compute and memory
 * throughput against 100% of peak); a roofline chart of the kernels where the profile has the
 * metrics of ncu's SpeedOfLight_RooflineChart section, else a note naming them; every launch with
 * every metric. A filter by kernel name (plain JavaScript in the page) narrows the tables and the
 * chart. Chart.js is inlined only when there is a chart.
 * @throws KreplayError when Chart.js cannot be read (only for a profile with a roofline).
 */
export function renderProfileHtml(profile: ProfileDocument): string {
  const kernels = summarizeKernels(profile);
  const roofline = rooflineSection(profile, kernels);
  const title = `kreplay profile: ${profile.workload}`;
  const data = JSON.stringify({ roofline: roofline.data }).replace(/</g, '\\u003c');
  return htmlPage(
    title,
    style,
    `<p class="note">${escapeHtml(`${profile.device} (${profile.chip}): ${kernels.length} kernel${kernels.length === 1 ? '' : 's'}, ${profile.dispatches.length} launch${profile.dispatches.length === 1 ? '' : 'es'}`)}</p>
${facts(profile)}
<h2>Kernels by time</h2>
${kernelTable(profile, kernels)}
<h2>Roofline</h2>
${roofline.html}
<h2>Launches</h2>
${launchTable(profile)}
<script type="application/json" id="profile-data">${data}</script>
${roofline.data === null ? '' : `<script>${chartLibrarySource()}</script>`}
<script>${profilePageScript}</script>`,
  );
}
