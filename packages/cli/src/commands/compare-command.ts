import { Command, InvalidArgumentError } from 'commander';
import { KreplayError } from '@kreplay/native';
import { BenchReportError, compareByDevice, compareReports, formatComparison, formatDeviceComparison, readBenchReport, renderDeviceComparisonHtml, writeReportFile } from '@kreplay/bench';
import type { BenchReport } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { refuseWithout } from '../option-dependencies.js';
import { checkOutputPaths } from '../output-path.js';
import { UsageError } from '../usage-error.js';
import { writeThenPrint } from '../write-then-print.js';

interface CompareOptions {
  readonly threshold: number;
  readonly byDevice?: boolean;
  readonly html?: string;
  readonly out?: string;
  readonly json?: boolean;
}

/** Parses --threshold: a non-negative fraction such as 0.1. */
function parseThreshold(text: string): number {
  const value = Number(text);
  if (!/^\s*\d*\.?\d+\s*$/.test(text) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(`"${text}" is not a non-negative fraction such as 0.1.`);
  }
  return value;
}

/**
 * Reads a report the comparison cannot do without: a file that is missing, not JSON, not a bench
 * report or not valid against its schema is unusable input (exit 2, the bench message as it is).
 */
async function readInput(command: Command, path: string): Promise<BenchReport> {
  try {
    return await readBenchReport(path);
  } catch (error) {
    if (error instanceof BenchReportError) command.error(`kreplay: ${error.message}`, { exitCode: 2, code: 'kreplay.compare.input' });
    throw error;
  }
}

/** Refuses a report without rows: comparing with it would pass a gate on nothing. */
function requireRows(path: string, report: BenchReport, role: 'base' | 'head'): void {
  if (report.rows.length > 0) return;
  throw new UsageError('compare', `${path}: rows is empty, so the ${role} report measured nothing to compare`, 'Pass a report of a bench run that measured at least one row (kreplay bench --out)');
}

/**
 * `kreplay compare`: drift between two bench reports, as a gate: exit 1 on a regression only; exit 2
 * for unusable input (a file missing, not a valid bench report, a report without rows, two reports
 * sharing no configuration) and for options that need --by-device.
 */
export function compareCommand(io: CliIo): Command {
  return new Command('compare')
    .description('compare two bench reports metric by metric; exit 1 when one regressed beyond the threshold')
    .argument('<reports...>', 'base and head reports; with --by-device, any number of reports from different machines')
    .option('--threshold <fraction>', 'relative change that counts as a regression', parseThreshold, 0.1)
    .option('--by-device', 'merge reports from several machines into one table grouped by device and host link')
    .option('--html <file>', 'with --by-device: also write a self-contained HTML page with charts')
    .option('-o, --out <file>', 'with --by-device: also write the merged comparison as JSON')
    .option('--json', 'print the comparison as JSON on stdout instead of the table')
    .action(async (paths: string[], options: CompareOptions, command: Command) => {
      refuseWithout(command, { flag: '--by-device', present: options.byDevice === true }, ['--html', '--out']);
      if (options.byDevice) return compareByDeviceAction(io, command, paths, options);
      if (paths.length !== 2) {
        command.error(`error: compare takes a base and a head report, got ${paths.length}; pass two reports, or --by-device to merge several.`, { exitCode: 2 });
      }
      const [basePath, headPath] = paths as [string, string];
      const base = await readInput(command, basePath);
      const head = await readInput(command, headPath);
      requireRows(basePath, base, 'base');
      requireRows(headPath, head, 'head');
      const comparison = compareReports(base, head, { threshold: options.threshold });
      if (comparison.changes.length === 0) {
        throw new UsageError('compare', `${basePath} and ${headPath} share no configuration (row, fit or ceiling key), so nothing was compared`, 'Compare reports of the same preset');
      }
      io.stdout(options.json ? `${JSON.stringify(comparison)}\n` : formatComparison(comparison));
      const { regressions } = comparison;
      if (regressions.length === 0) return;
      const first = regressions.slice(0, 3).map((change) => `${change.metric} of ${change.key}`).join('; ');
      const more = regressions.length > 3 ? ` and ${regressions.length - 3} more` : '';
      const message = `[cli] [compare] ${regressions.length} metric(s) regressed by more than ${(100 * options.threshold).toFixed(1)}%: ${first}${more}. Investigate, or raise --threshold if the change is expected.`;
      throw new KreplayError({ packageName: 'cli', component: 'compare', message });
    });
}

/** `kreplay compare --by-device`: reports of several machines in one table (and page) grouped by device. */
async function compareByDeviceAction(io: CliIo, command: Command, paths: readonly string[], options: CompareOptions): Promise<void> {
  await checkOutputPaths('compare', { '--out': options.out, '--html': options.html }, { '<reports>': paths });
  const reports: { source: string; report: BenchReport }[] = [];
  for (const source of paths) reports.push({ source, report: await readInput(command, source) });
  const comparison = compareByDevice(reports);
  const write = async () => {
    if (options.out !== undefined) await writeReportFile(options.out, `${JSON.stringify(comparison, null, 2)}\n`);
    if (options.html !== undefined) await writeReportFile(options.html, renderDeviceComparisonHtml(comparison));
  };
  await writeThenPrint(io, write, options.json ? `${JSON.stringify(comparison)}\n` : formatDeviceComparison(comparison));
}
