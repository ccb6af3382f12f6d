import { Command, Option } from 'commander';
import { openRuntime } from '@kreplay/native';
import { benchPreset, benchPresetNames, formatReportTable, runBench, writeBenchReport, writeHtmlReport } from '@kreplay/bench';
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
 * `kreplay bench`: a preset's sweep with its baselines, written as JSON (and HTML), summarised as a
 * table (or printed as the JSON report with --json). Ctrl-C stops between dispatches, writes what was
 * measured (`complete: false`) and exits 130.
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
      using interruption = listenForInterrupt(io, 'writing what was measured so far');
      let progress: Progress | undefined;
      const report = await runBench(runtime, {
        configuration: benchPreset(options.preset),
        signal: interruption.signal,
        onProgress: ({ done, total }) => (progress ??= createProgress(io, { label: `bench ${options.preset}`, total, unit: 'runs' })).update(done),
      }).finally(() => progress?.done());
      // The results first: if writing fails after all, what was measured is still on stdout.
      io.stdout(options.json ? `${JSON.stringify(report)}\n` : formatReportTable(report));
      await writeBenchReport(options.out, report);
      if (options.html !== undefined) await writeHtmlReport(options.html, report);
      if (!report.complete) {
        throw new InterruptedError('bench', `wrote the ${report.rows.length} runs measured so far to ${options.out} (complete: false)`, 'Run kreplay bench again to measure everything');
      }
    });
}
