import { Command, InvalidArgumentError } from 'commander';
import { KreplayError } from '@kreplay/native';
import { compareReports, formatComparison, readBenchReport } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';

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
    .argument('<base>', 'the report to compare against')
    .argument('<head>', 'the new report')
    .option('--threshold <fraction>', 'relative change that counts as a regression', parseThreshold, 0.1)
    .action(async (basePath: string, headPath: string, options: { readonly threshold: number }) => {
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
