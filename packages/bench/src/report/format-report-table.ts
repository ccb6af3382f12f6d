import { formatBytes, formatMilliseconds, formatRatio, formatRate, exactBytes } from '../format-units.js';
import type { BenchReport, BenchRow } from './bench-report.js';
import { meaningfulFitRSquared, passCostFitCaveat } from './pass-cost-fit.js';
import type { PassCostFit } from './pass-cost-fit.js';
import { textTable } from './text-table.js';

const percent = (value: number | null | undefined) => (value === null || value === undefined || !Number.isFinite(value) ? '-' : `${(100 * value).toFixed(1)}%`);
const plusMinus = (value: number, error: number | null) => `${formatMilliseconds(value)} ± ${formatMilliseconds(error)}`;

function rowCells(row: BenchRow): string[] {
  const { summary, ratios } = row;
  return [
    row.variant, row.sweep, exactBytes(row.footprintBytes), String(row.passes), `${row.dispatchesRun}/${row.dispatches}`,
    String(row.writeFraction), String(row.streams),
    formatMilliseconds(summary.meanDispatchMs),
    row.bytesMeasured ? formatBytes(summary.bytesPerDispatch.copied) : '-',
    row.bytesMeasured ? formatBytes(summary.bytesPerDispatch.hashed) : '-',
    formatRate(summary.bandwidth.snapshotBytesPerSecond),
    formatRatio(ratios.vsReference?.time ?? null),
    formatRatio(ratios.vsReference?.bytes ?? null),
    formatRatio(ratios.vsCopyCeiling?.hostLink ?? null),
    formatRatio(ratios.vsCopyCeiling?.device ?? null),
    percent(ratios.ceilingEfficiency),
    formatBytes(row.memory.rssPeakBytes),
    formatBytes(row.memory.stagingHostHighWaterBytes),
    percent(row.background?.throughputLost),
  ];
}

const rowHeaders = ['variant', 'sweep', 'footprint', 'passes', 'dispatches', 'write', 'streams', 'ms/dispatch', 'copied/disp', 'hashed/disp', 'snapshot rate', 'time/ref', 'bytes/ref', 'time/link', 'time/d2d', 'ceiling eff', 'RSS peak', 'host staging', 'stream loss'];

function fitCells(fit: PassCostFit): string[] {
  const caveat = passCostFitCaveat(fit);
  return [
    fit.variant, exactBytes(fit.footprintBytes), fit.passes.join(','), plusMinus(fit.fixedMs, fit.fixedStandardErrorMs), plusMinus(fit.perPassMs, fit.perPassStandardErrorMs),
    fit.rSquared.toFixed(3), String(fit.points), caveat === null ? 'yes' : `not meaningful: ${caveat}`,
  ];
}

/** The terminal summary of a report: machine, baselines, every row with its ratios, the fits, and what was skipped. */
export function formatReportTable(report: BenchReport): string {
  const device = report.devices[0];
  const lines = [
    `kreplay bench, preset ${report.configuration.preset}, driver ${report.driver}${device ? ` (${device.name})` : ''}: ${report.rows.length} runs in ${report.durationSeconds.toFixed(1)} s${report.complete ? '' : ' (INCOMPLETE: interrupted)'}`,
    `machine ${report.machine.hostname}: ${report.machine.cpuModel}, ${report.machine.cores} cores, ${formatBytes(report.machine.memoryBytes)} RAM, ${report.machine.os.platform} ${report.machine.os.release}`,
    '',
    'raw copy ceiling (plain copy plans of the footprint):',
    textTable(
      ['footprint', ...(report.baselines.copyCeilings[0]?.paths.map((path) => path.path) ?? [])],
      report.baselines.copyCeilings.map((ceiling) => [exactBytes(ceiling.footprintBytes), ...ceiling.paths.map((path) => formatRate(path.bytesPerSecond))]),
    ),
    `checkpoint baseline (${report.baselines.checkpoint.provider}): ${report.baselines.checkpoint.available ? 'measured' : report.baselines.checkpoint.reason}`,
    '',
    'runs (ratios are row / baseline: below 1 is faster or smaller than the baseline):',
    textTable(rowHeaders, report.rows.map(rowCells), 2),
    '',
    `fixed and per-pass cost per dispatch (least squares over the pass sweep, ± one standard error; a fit is not meaningful with a negative cost or R² below ${meaningfulFitRSquared}):`,
    textTable(['variant', 'footprint', 'passes', 'fixed ms', 'per-pass ms', 'R²', 'points', 'meaningful'], report.fits.map(fitCells), 2),
    ...report.skipped.map((cell) => `skipped ${cell.key}: ${cell.reason}`),
    ...report.notes.map((note) => `note: ${note}`),
  ];
  return `${lines.join('\n')}\n`;
}
