import { exactBytes, formatBytes, formatMilliseconds, formatRate, formatRatio } from '../format-units.js';
import type { BenchReport } from '../report/bench-report.js';
import { meaningfulFitRSquared, passCostFitCaveat } from '../report/pass-cost-fit.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The machine, versions and baselines of a report, as HTML tables. */
export function contextTables(report: BenchReport): string {
  const { machine, versions } = report;
  const facts: [string, string][] = [
    ['preset', report.configuration.preset],
    ['complete', report.complete ? 'yes' : 'no: interrupted, these are the rows measured until then'],
    ['created', report.createdAt],
    ['duration', `${report.durationSeconds.toFixed(1)} s`],
    ['machine', `${machine.hostname}: ${machine.cpuModel}, ${machine.cores} cores, ${formatBytes(machine.memoryBytes)} RAM, ${machine.os.platform} ${machine.os.release} ${machine.os.arch}`],
    ['driver', report.driver],
    ...report.devices.map((device): [string, string] => [`agent ${device.id}`, `${device.name} [${device.architecture}] ${formatBytes(device.deviceMemoryBytes)}, ${formatBytes(device.memory.freeBytes)} free`]),
    ['versions', `node ${versions.node}, addon ${versions.addon}, driver ${versions.driver}, @kreplay/bench ${versions.bench}`],
    ['git commit', report.gitCommit ?? 'unknown'],
    ['checkpoint baseline', `${report.baselines.checkpoint.provider}: ${report.baselines.checkpoint.available ? 'measured' : report.baselines.checkpoint.reason ?? ''}`],
  ];
  const ceilings = report.baselines.copyCeilings;
  return [
    table(['', ''], facts),
    '<h2>Raw copy ceiling</h2>',
    table(['footprint', ...(ceilings[0]?.paths.map((path) => path.path) ?? [])], ceilings.map((ceiling) => [exactBytes(ceiling.footprintBytes), ...ceiling.paths.map((path) => formatRate(path.bytesPerSecond))])),
  ].join('\n');
}

/** Every row and fit of a report, as HTML tables. */
export function resultTables(report: BenchReport): string {
  const rows = report.rows.map((row) => [
    row.key, formatMilliseconds(row.summary.meanDispatchMs), formatMilliseconds(row.summary.phaseMs.capture), formatMilliseconds(row.summary.phaseMs.restores),
    formatMilliseconds(row.summary.phaseMs.quiesce), row.bytesMeasured ? formatBytes(row.summary.bytesPerDispatch.copied) : '-',
    row.bytesMeasured ? formatBytes(row.summary.bytesPerDispatch.hashed) : '-', formatRate(row.summary.bandwidth.snapshotBytesPerSecond),
    formatRatio(row.ratios.vsReference?.time ?? null), formatRatio(row.ratios.vsCopyCeiling?.hostLink ?? null), formatBytes(row.memory.rssPeakBytes),
    row.background ? `${(100 * row.background.throughputLost).toFixed(1)}%` : '-',
  ]);
  const fits = report.fits.map((fit) => {
    const caveat = passCostFitCaveat(fit);
    return [
      fit.key, `${formatMilliseconds(fit.fixedMs)} ± ${formatMilliseconds(fit.fixedStandardErrorMs)}`,
      `${formatMilliseconds(fit.perPassMs)} ± ${formatMilliseconds(fit.perPassStandardErrorMs)}`, fit.rSquared.toFixed(3), String(fit.points),
      caveat === null ? 'yes' : `not meaningful: ${caveat}`,
    ];
  });
  return [
    '<h2>Fixed and per-pass cost</h2>',
    `<p class="note">A fit with a negative cost or an R² below ${meaningfulFitRSquared} is not meaningful: the pass count does not explain the dispatch times, so it is not charted.</p>`,
    table(['configuration', 'fixed ms', 'per-pass ms', 'R²', 'points', 'meaningful'], fits),
    '<h2>Runs</h2>',
    table(['configuration', 'ms/dispatch', 'capture ms', 'restores ms', 'quiesce ms', 'copied', 'hashed', 'snapshot rate', 'time/ref', 'time/ceiling', 'RSS peak', 'stream loss'], rows),
  ].join('\n');
}
