import { Command, Option } from 'commander';
import { KreplayError } from '@kreplay/native';
import { BenchReportError, compareByDevice, compareReports, formatComparison, formatDeviceComparison, launchMatches, readBenchReport, renderDeviceComparisonHtml, writeReportFile } from '@kreplay/bench';
import type { BenchReport, LaunchMatch, ReportDocument } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { compareProfilesAction } from '../compare-profiles-action.js';
import { refuseWithout } from '../option-dependencies.js';
import { checkOutputPaths } from '../output-path.js';
import { readInputDocument } from '../report-input.js';
import { collectThresholds, thresholdsOf } from '../threshold-option.js';
import type { ThresholdArgument } from '../threshold-option.js';
import { UsageError } from '../usage-error.js';
import { writeThenPrint } from '../write-then-print.js';

interface CompareOptions {
  readonly threshold?: ThresholdArgument[];
  readonly match?: LaunchMatch;
  readonly byDevice?: boolean;
  readonly html?: string;
  readonly out?: string;
  readonly json?: boolean;
}

const kindName = (document: ReportDocument) => (document.kind === 'bench' ? 'a bench report' : 'a profile');

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
 * `kreplay compare`: drift between two bench reports, or between two profiles kernel by kernel
 * (compareProfilesAction), as a gate: exit 1 on a regression (a profile metric that moved beyond
 * its threshold) only; exit 2 for unusable input (a file missing, neither a valid bench report nor
 * a valid profile, a bench report and a profile, a report without rows, two reports sharing no
 * configuration, two profiles sharing no launch) and for options the inputs do not take.
 */
export function compareCommand(io: CliIo): Command {
  return new Command('compare')
    .description('compare two bench reports, or two profiles kernel by kernel, metric by metric; exit 1 when one regressed (a profile metric moved) beyond the threshold')
    .argument('<reports...>', 'base and head bench reports, or two profiles (kreplay profile --json); with --by-device, any number of bench reports from different machines')
    .option('--threshold <t>', 'relative change beyond which a metric fails: 5% or 0.05 for every metric (default 10%); for profiles also METRIC=3% for one metric (then metrics not named are not gated unless a threshold for every metric is given too); repeatable', collectThresholds)
    .addOption(new Option('--match <rule>', "profiles: how launches are matched, as ncu's --app-replay-match: name (the i-th launch of a kernel name with the i-th launch of that name), grid (also the same grid and block); default name").choices(launchMatches))
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
      const first = await readInputDocument(command, basePath, 'kreplay.compare.input');
      const second = await readInputDocument(command, headPath, 'kreplay.compare.input');
      if (first.kind !== second.kind) {
        throw new UsageError('compare', `${basePath} is ${kindName(first)} and ${headPath} is ${kindName(second)}`, 'Compare two bench reports, or two profiles');
      }
      const thresholds = thresholdsOf('compare', options.threshold);
      if (first.kind === 'profile' && second.kind === 'profile') {
        return compareProfilesAction(io, { paths: [basePath, headPath], profiles: [first.report, second.report], match: options.match ?? 'name', thresholds, json: options.json === true });
      }
      const [base, head] = [first.report, second.report] as [BenchReport, BenchReport];
      if (options.match !== undefined) throw new UsageError('compare', `--match ${options.match} matches the launches of profiles, and ${basePath} and ${headPath} are bench reports`, 'Leave out --match');
      const named = Object.keys(thresholds.byMetric);
      if (named.length > 0) throw new UsageError('compare', `--threshold ${named[0]}=... sets the threshold of a profile metric, and bench reports take one threshold for every metric`, 'Pass --threshold 5% (or 0.05)');
      const threshold = thresholds.all ?? 0.1;
      requireRows(basePath, base, 'base');
      requireRows(headPath, head, 'head');
      const comparison = compareReports(base, head, { threshold });
      if (comparison.changes.length === 0) {
        throw new UsageError('compare', `${basePath} and ${headPath} share no configuration (row, fit or ceiling key), so nothing was compared`, 'Compare reports of the same preset');
      }
      io.stdout(options.json ? `${JSON.stringify(comparison)}\n` : formatComparison(comparison));
      const { regressions } = comparison;
      if (regressions.length === 0) return;
      const worst = regressions.slice(0, 3).map((change) => `${change.metric} of ${change.key}`).join('; ');
      const more = regressions.length > 3 ? ` and ${regressions.length - 3} more` : '';
      const message = `[cli] [compare] ${regressions.length} metric(s) regressed by more than ${(100 * threshold).toFixed(1)}%: ${worst}${more}. Investigate, or raise --threshold if the change is expected.`;
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
