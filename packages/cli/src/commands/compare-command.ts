import { Command, InvalidArgumentError } from 'commander';
import { KreplayError } from '@kreplay/native';
import { compareByDevice, compareReports, formatComparison, formatDeviceComparison, readBenchReport, renderDeviceComparisonHtml, writeReportFile } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { checkOutputPaths } from '../output-path.js';

interface CompareOptions {
  readonly threshold: number;
  readonly byDevice?: boolean;
  readonly html?: string;
  readonly out?: string;
}

/** Parses --threshold: a non-negative fraction such as 0.1. */
function parseThreshold(text: string): number {
  const value = Number(text);
  if (!/^\s*\d*\.?\d+\s*$/.test(text) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(`"${text}" is not a non-negative fraction such as 0.1.`);
  }
  return value;
}

/** `kreplay compare`: drift between two bench reports, as a gate (exit 1 on a regression). */
export function compareCommand(io: CliIo): Command {
  return new Command('compare')
    .description('compare two bench reports metric by metric; exit 1 when one regressed beyond the threshold')
    .argument('<reports...>', 'base and head reports; with --by-device, any number of reports from different machines')
    .option('--threshold <fraction>', 'relative change that counts as a regression', parseThreshold, 0.1)
    .option('--by-device', 'merge reports from several machines into one table grouped by device and host link')
    .option('--html <file>', 'with --by-device: also write a self-contained HTML page with charts')
    .option('--out <file>', 'with --by-device: also write the merged comparison as JSON')
    .action(async (paths: string[], options: CompareOptions, command: Command) => {
      if (options.byDevice) return compareByDeviceAction(io, paths, options);
      if (paths.length !== 2) {
        command.error(`error: compare takes a base and a head report, got ${paths.length}; pass two reports, or --by-device to merge several.`, { exitCode: 2 });
      }
      const [basePath, headPath] = paths as [string, string];
      const [base, head] = await Promise.all([readBenchReport(basePath), readBenchReport(headPath)]);
      const comparison = compareReports(base, head, { threshold: options.threshold });
      if (comparison.changes.length === 0) {
        const message = `[cli] [compare] ${basePath} and ${headPath} share no configuration, so nothing was compared. Compare reports of the same preset.`;
        throw new KreplayError({ packageName: 'cli', component: 'compare', message });
      }
      io.stdout(formatComparison(comparison));
      const { regressions } = comparison;
      if (regressions.length === 0) return;
      const first = regressions.slice(0, 3).map((change) => `${change.metric} of ${change.key}`).join('; ');
      const more = regressions.length > 3 ? ` and ${regressions.length - 3} more` : '';
      const message = `[cli] [compare] ${regressions.length} metric(s) regressed by more than ${(100 * options.threshold).toFixed(1)}%: ${first}${more}. Investigate, or raise --threshold if the change is expected.`;
      throw new KreplayError({ packageName: 'cli', component: 'compare', message });
    });
}

/** `kreplay compare --by-device`: reports of several machines in one table (and page) grouped by device. */
async function compareByDeviceAction(io: CliIo, paths: readonly string[], options: CompareOptions): Promise<void> {
  await checkOutputPaths('compare', { '--out': options.out, '--html': options.html });
  const reports = await Promise.all(paths.map(async (source) => ({ source, report: await readBenchReport(source) })));
  const comparison = compareByDevice(reports);
  io.stdout(formatDeviceComparison(comparison));
  if (options.out !== undefined) await writeReportFile(options.out, `${JSON.stringify(comparison, null, 2)}\n`);
  if (options.html !== undefined) await writeReportFile(options.html, renderDeviceComparisonHtml(comparison));
}
