import { kernelNames } from '@kreplay/native';
import { graphNodeSuffix } from './graph-profiling.js';
import { formatBytes } from '@kreplay/bench';
import { describeSequences } from './capture-ranges.js';
import { describeConditions } from './profile-condition-flags.js';
import { terminalText } from './terminal-text.js';
import { formatNcuNumber, scaleToNcuUnit } from '@kreplay/bench';
import { describeDimensions } from './profile-launch.js';
import { computeCapabilityText, profiledValue } from './profile-metric-value.js';
import { allMetrics, commandLineSectionName } from './sections/resolve-sections.js';
import type { ProfileRow } from './profile-dispatches.js';
import type { ProfileReport } from './profile-report.js';

/** How the details page prints units: scaled as ncu prints them (`auto`, its default) or in base units. */
export type PrintUnits = 'auto' | 'base';

/** Which page of ncu's: each section's table (`details`, its default), or every metric collected (`raw`). */
export type ProfilePage = 'details' | 'raw';

/** The name of the one table of the raw page. */
const rawTableName = 'Raw Metrics';

/** The tables of one launch: each section, then the metrics named with --metrics; or on the raw page every metric by name. */
function tables(report: ProfileReport, page: ProfilePage): { readonly name: string; readonly rows: readonly { readonly label: string; readonly metric: string }[] }[] {
  if (page === 'raw') return [{ name: rawTableName, rows: allMetrics(report.sections, report.commandLineMetrics).sort().map((metric) => ({ label: metric, metric })) }];
  const sections = report.sections.map((section) => ({ name: section.displayName, rows: section.header }));
  if (report.commandLineMetrics.length === 0) return sections;
  return [...sections, { name: commandLineSectionName, rows: [...report.commandLineMetrics].sort().map((metric) => ({ label: metric, metric })) }];
}

/** One section's table, as ncu prints it: name, unit and value columns, each as wide as its longest entry. */
function describeTable(name: string, rows: readonly (readonly [string, string, string])[]): string[] {
  const lines = [`    Section: ${name}`];
  if (rows.length === 0) return lines;
  const header = ['Metric Name', 'Metric Unit', 'Metric Value'] as const;
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const rule = `    ${widths.map((width) => '-'.repeat(width)).join(' ')}`;
  const line = (row: readonly string[]) => `    ${row[0]!.padEnd(widths[0]!)} ${row[1]!.padStart(widths[1]!)} ${row[2]!.padStart(widths[2]!)}`.trimEnd();
  return [...lines, rule, line(header), rule, ...rows.map(line), rule];
}

/** The name ncu prints for a row's kernel: its demangled name; `dispatch N` where the kernel is not known. */
export function printedKernelName(row: ProfileRow): string {
  const symbol = row.launch?.function ?? row.kernel;
  return symbol === undefined ? `dispatch ${row.dispatch}` : kernelNames(symbol).demangled;
}

/** ncu's line naming a profiled kernel: `name (grid)x(block), Device 0, CC 9.0`. */
export function describeLaunchHeading(row: ProfileRow, architecture: string): string {
  const name = terminalText(`${printedKernelName(row)}${graphNodeSuffix(row.graph)}`);
  const shape = row.grid === undefined || row.block === undefined ? '' : ` ${describeDimensions(row.grid)}x${describeDimensions(row.block)}`;
  return `  ${name}${shape}, Device 0, CC ${computeCapabilityText(architecture)}`;
}

/** What kreplay did for one row: passes, wall time, bytes copied, or why it was not replayed. */
function describeReplayOf(row: ProfileRow): string[] {
  const where = row.range === null ? `${row.wallMs.toFixed(2)} ms wall, ${formatBytes(row.bytesCopied)} copied` : `in range ${row.range}`;
  const kind = row.kernel === undefined ? 'dispatch' : 'launch';
  const lines = [`    Replay: ${kind} ${row.dispatch}, ${row.passes} passes, ${where}${row.replayed ? '' : ' (not replayed)'}`];
  if (row.declineReason) lines.push(`    declined: ${terminalText(row.declineReason)}`);
  if (row.error) lines.push(`    error: ${terminalText(row.error)}`);
  return lines;
}

/** The summary of a whole profile: device, workload, passes, strategy, conditions and what CUPTI cost; its notes; each range. */
export function describeProfileSummary(report: ProfileReport): string[] {
  const ranged =
    report.range === 'auto'
      ? `, ranges of whole captured sequences (cache control ${report.cacheControl})`
      : report.range > 1
        ? `, ranges of ${report.range} ${report.workload.startsWith('capture:') ? 'launches' : 'dispatches'} (cache control ${report.cacheControl})`
        : '';
  const warm = report.warmRuns > 0 ? ` after ${report.warmRuns} unprofiled run${report.warmRuns === 1 ? '' : 's'}` : '';
  const sampled = report.samples > 1 ? `, medians of ${report.samples} samples` : '';
  const perKernel = report.dispatches.length > 0 ? `; ${(report.wallMs / report.dispatches.length).toFixed(2)} ms per dispatch` : '';
  const lines = [
    `${report.device} (${report.chip}), ${report.workload}; ${report.passes} pass${report.passes === 1 ? '' : 'es'} per dispatch${warm}${sampled}, strategy ${report.strategy}, ${report.measure} measured${ranged}, ${describeConditions(report.conditions)}; CUPTI setup ${report.setupMs.toFixed(1)} ms${perKernel}`,
  ];
  for (const note of report.notes ?? []) lines.push(`note: ${terminalText(note)}`);
  report.ranges.forEach((range, index) => {
    const which = range.launches === undefined ? `of dispatches ${range.first}-${range.first + range.dispatches - 1}` : `${index}: launches ${describeSequences(range.launches)} (${range.dispatches})`;
    const before = range.bytesBefore === undefined ? '' : `, ${formatBytes(range.bytesBefore)} copied before launches`;
    lines.push(
      `range ${which}: ${range.passes} passes, ${range.wallMs.toFixed(2)} ms wall (${range.wallMsPerDispatch.toFixed(2)} ms per ${range.launches === undefined ? 'dispatch' : 'launch'}), ${formatBytes(range.bytesCopied)} restored${before}${range.replayed ? '' : ' (not replayed)'}`,
    );
    if (range.declineReason) lines.push(`  declined: ${terminalText(range.declineReason)}`);
    if (range.error) lines.push(`  error: ${terminalText(range.error)}`);
  });
  return lines;
}

/** Whether a launch's row holds no metrics: it failed, was declined, or collected nothing (its `error` says which). */
export const notProfiled = (row: ProfileRow): boolean => row.metrics === null || row.error !== undefined;

/** `sequence kernel` of a captured launch's row, escaped for the terminal. */
export const launchName = (row: ProfileRow): string => `${row.dispatch} ${terminalText(row.kernel ?? '')}`;

/** `capture:`: how many launches were profiled, which failed, and the damaged records not profiled. */
function describeCaptureOutcome(report: ProfileReport): string[] {
  if (report.damaged === undefined) return [];
  const failed = report.dispatches.filter(notProfiled);
  const total = report.dispatches.length + report.damaged.length;
  const failedText = failed.length > 0 ? `; failed ${failed.length}: ${failed.map(launchName).join(', ')}` : '';
  const damagedText = report.damaged.length > 0 ? `; damaged ${report.damaged.length} (not profiled)` : '';
  return [`profiled ${report.dispatches.length - failed.length}/${total} captured launches${failedText}${damagedText}`, ...report.damaged.map((reason) => `damaged, not profiled: ${terminalText(reason)}`)];
}

/**
 * The terminal form of a profile report, as ncu's details page prints a result: the summary, then
 * for each launch its kernel, shape and device, what the replay did, and each section's table of
 * `Metric Name`, `Metric Unit`, `Metric Value` (values in ncu's units, scaled unless `units` is
 * `base`; `n/a` where there is none), then the metrics named with --metrics; on the `raw` page one
 * table of every metric collected.
 */
export function describeProfile(report: ProfileReport, options: { readonly units?: PrintUnits; readonly page?: ProfilePage } = {}): string {
  const units = options.units ?? 'auto';
  const lines = describeProfileSummary(report);
  for (const row of report.dispatches) {
    lines.push('', describeLaunchHeading(row, report.architecture), ...describeReplayOf(row));
    if (row.metrics === null) continue;
    for (const table of tables(report, options.page ?? 'details')) {
      const rows = table.rows.map(({ label, metric }) => {
        const found = profiledValue(report, row, metric);
        if (found === undefined) return [label, '', 'n/a'] as const;
        const scaled = units === 'auto' ? scaleToNcuUnit(found.value, found.unit) : { ...found, scaled: false };
        return [label, scaled.unit, formatNcuNumber(scaled.value, scaled.scaled, { thousands: false })] as const;
      });
      lines.push(...describeTable(table.name, rows), '');
    }
  }
  const outcome = describeCaptureOutcome(report);
  if (outcome.length > 0) lines.push('', ...outcome);
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '')}\n`;
}
