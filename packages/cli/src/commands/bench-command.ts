import { Command, Option } from 'commander';
import { KreplayError, openRuntime } from '@kreplay/native';
import { benchPreset, benchPresetNames, formatReportTable, runBench, writeBenchReport, writeBenchReportSync, writeHtmlReport } from '@kreplay/bench';
import type { BenchReport } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { InterruptedError } from '../interrupted-error.js';
import { listenForInterrupt } from '../interrupt-signal.js';
import { createProgress } from '../progress.js';
import type { Progress } from '../progress.js';
import { parsePositiveInteger } from '../byte-size.js';
import { refuseWithout } from '../option-dependencies.js';
import { checkOutputPaths } from '../output-path.js';
import { collectValues } from '../repeatable-option.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import { runSlurmBenchAction } from './slurm-bench-action.js';
import type { StopSignal } from '../stop-signal.js';
import { writeThenPrint } from '../write-then-print.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';

interface BenchOptions extends RuntimeCommandOptions {
  readonly preset: string;
  readonly out: string;
  readonly html?: string;
  readonly json?: boolean;
  readonly slurm?: boolean;
  readonly partition: string[];
  readonly nodes: number;
  readonly bundle?: string;
  readonly nodeExecutable: string;
  readonly timeLimit?: string;
}

/** The options that mean something only with --slurm. */
const slurmOnlyFlags = ['--partition', '--nodes', '--bundle', '--node-executable', '--time-limit'];

/**
 * `kreplay bench`: a preset's sweep with its baselines, written as JSON (and HTML), then summarised
 * as a table (or printed as the JSON report with --json). Ctrl-C (SIGTERM) stops between dispatches,
 * writes what was measured (`complete: false`) and exits 130 (143); a later signal quits at once,
 * after writing the runs measured. A run that measured nothing writes nothing and exits non-zero.
 */
export function benchCommand(io: CliIo): Command {
  return withRuntimeOptions(new Command('bench').description('measure what replay costs across a preset sweep, against baselines measured in the same run'))
    .addOption(new Option('--preset <name>', 'what to sweep').choices(benchPresetNames).default('quick'))
    .requiredOption('-o, --out <file>', 'where to write the JSON report')
    .option('--html <file>', 'also write a self-contained HTML report with charts')
    .option('--json', 'print the report as JSON on stdout instead of the table (progress stays on stderr)')
    .option('--slurm', 'run the preset on Slurm nodes as job arrays and merge their reports by device (--out is the merged comparison)')
    .option('--partition <name>', 'with --slurm: a partition to run on (repeat for several; default: the default partition)', collectValues, [])
    .option('--nodes <n>', 'with --slurm: nodes (array tasks) per partition', parsePositiveInteger, 1)
    .option('--bundle <dir>', 'with --slurm: folder with kreplay.mjs and kreplay.node, visible to every node')
    .option('--node-executable <path>', 'with --slurm: Node.js on the nodes', process.execPath)
    .option('--time-limit <time>', 'with --slurm: Slurm time limit per task, e.g. 01:00:00')
    .action(async (options: BenchOptions, command: Command) => {
      refuseWithout(command, { flag: '--slurm', present: options.slurm === true }, slurmOnlyFlags);
      if (options.slurm) return runSlurmBenchAction(io, options);
      await checkOutputPaths('bench', { '--out': options.out, '--html': options.html });
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      let reportSoFar: (() => BenchReport) | undefined;
      let written = false;
      using interruption = listenForInterrupt(io, 'writing what was measured so far', {
        saveNow: () => {
          const report = written ? undefined : reportSoFar?.();
          if (report === undefined || report.rows.length === 0) return;
          writeBenchReportSync(options.out, report);
          io.stderr(`kreplay: quit; wrote the ${report.rows.length} runs measured so far to ${options.out} (complete: false)\n`);
        },
      });
      let progress: Progress | undefined;
      const report = await runBench(runtime, {
        configuration: benchPreset(options.preset),
        signal: interruption.signal,
        onStart: (soFar) => (reportSoFar = soFar),
        onProgress: ({ done, total }) => (progress ??= createProgress(io, { label: `bench ${options.preset}`, total, unit: 'runs' })).update(done),
      }).finally(() => progress?.done());
      const signal = interruption.received ?? 'SIGINT';
      if (report.rows.length === 0) throw nothingMeasured(report, options.out, signal);
      const writeReports = async () => {
        await writeBenchReport(options.out, report);
        written = true;
        if (options.html !== undefined) await writeHtmlReport(options.html, report);
      };
      await writeThenPrint(io, writeReports, options.json ? `${JSON.stringify(report)}\n` : formatReportTable(report));
      if (!report.complete) {
        throw new InterruptedError('bench', `wrote the ${report.rows.length} runs measured so far to ${options.out} (complete: false)`, 'Run kreplay bench again to measure everything', signal);
      }
    });
}

/**
 * A bench that measured nothing writes nothing (a report without rows would replace an earlier one,
 * and compare refuses it): interrupted before the first run, or every run skipped or failed.
 */
function nothingMeasured(report: BenchReport, out: string, signal: StopSignal): KreplayError {
  const notWritten = `${out} was not written (what it held is kept)`;
  if (!report.complete) return new InterruptedError('bench', `nothing was measured, so ${notWritten}`, 'Run kreplay bench again, and let it measure at least one run', signal);
  const first = report.skipped[0];
  const why = first === undefined ? 'the preset has no runs' : `all ${report.skipped.length} runs were skipped (first: ${first.key}: ${first.reason})`;
  return new KreplayError({ packageName: 'cli', component: 'bench', message: `[cli] [bench] measured nothing: ${why}, so ${notWritten}. Fix what the reason says (e.g. give the device more memory), then run kreplay bench again.` });
}
