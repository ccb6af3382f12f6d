import { Command } from 'commander';
import { BenchReportError, formatReportTable, readBenchReport, writeHtmlReport } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { checkOutputPaths } from '../output-path.js';
import { writeThenPrint } from '../write-then-print.js';

interface ReportOptions {
  readonly html?: string;
  readonly json?: boolean;
}

/**
 * `kreplay report`: a bench report as a terminal table (or, with --json, as JSON after it was read
 * and validated), and optionally as an HTML page. A report it cannot use is an input error (exit 2).
 */
export function reportCommand(io: CliIo): Command {
  return new Command('report')
    .description('print a bench report as a table, and render it as HTML with --html')
    .argument('<report>', 'a JSON report written by kreplay bench')
    .option('--html <file>', 'write a self-contained HTML report with charts')
    .option('--json', 'print the report as JSON on stdout instead of the table')
    .action(async (path: string, options: ReportOptions, command: Command) => {
      await checkOutputPaths('report', { '--html': options.html }, { '<report>': path });
      const report = await readBenchReport(path).catch((error: unknown) => {
        if (error instanceof BenchReportError) command.error(`kreplay: ${error.message}`, { exitCode: 2, code: 'kreplay.report.input' });
        throw error;
      });
      const write = async () => {
        if (options.html !== undefined) await writeHtmlReport(options.html, report);
      };
      await writeThenPrint(io, write, options.json ? `${JSON.stringify(report)}\n` : formatReportTable(report));
    });
}
