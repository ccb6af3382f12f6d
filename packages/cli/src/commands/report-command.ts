import { Command } from 'commander';
import { formatProfileTable, formatReportTable, renderProfileHtml, writeHtmlReport, writeReportFile } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { checkOutputPaths } from '../output-path.js';
import { readInputDocument } from '../report-input.js';
import { writeThenPrint } from '../write-then-print.js';

interface ReportOptions {
  readonly html?: string;
  readonly json?: boolean;
}

/**
 * `kreplay report`: a bench report or a profile (told apart by its `schema`) as a terminal table
 * (or, with --json, as JSON after it was read and validated), and optionally as an HTML page. A
 * file it cannot use (neither kind, or invalid) is an input error (exit 2).
 */
export function reportCommand(io: CliIo): Command {
  return new Command('report')
    .description('print a bench report or a profile as a table, and render it as HTML with --html')
    .argument('<report>', 'a JSON report written by kreplay bench, or a profile written by kreplay profile --json')
    .option('--html <file>', 'write a self-contained HTML page (bench: charts; profile: kernels by time, speed-of-light bars, roofline)')
    .option('--json', 'print the report as JSON on stdout instead of the table')
    .action(async (path: string, options: ReportOptions, command: Command) => {
      await checkOutputPaths('report', { '--html': options.html }, { '<report>': path });
      const document = await readInputDocument(command, path, 'kreplay.report.input');
      const write = async () => {
        if (options.html === undefined) return;
        if (document.kind === 'bench') await writeHtmlReport(options.html, document.report);
        else await writeReportFile(options.html, renderProfileHtml(document.report));
      };
      const table = document.kind === 'bench' ? formatReportTable(document.report) : formatProfileTable(document.report);
      await writeThenPrint(io, write, options.json ? `${JSON.stringify(document.report)}\n` : table);
    });
}
