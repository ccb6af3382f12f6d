import { Command } from 'commander';
import { formatReportTable, readBenchReport, writeHtmlReport } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { checkOutputPaths } from '../output-path.js';

/** `kreplay report`: a bench report as a terminal table, and optionally as an HTML page. */
export function reportCommand(io: CliIo): Command {
  return new Command('report')
    .description('print a bench report as a table, and render it as HTML with --html')
    .argument('<report>', 'a JSON report written by kreplay bench')
    .option('--html <file>', 'write a self-contained HTML report with charts')
    .action(async (path: string, options: { readonly html?: string }) => {
      await checkOutputPaths('report', { '--html': options.html });
      const report = await readBenchReport(path);
      io.stdout(formatReportTable(report));
      if (options.html !== undefined) await writeHtmlReport(options.html, report);
    });
}
