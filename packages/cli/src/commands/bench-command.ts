import { Command, Option } from 'commander';
import { KreplayError, openRuntime } from '@kreplay/native';
import { benchPreset, benchPresetNames, formatReportTable, runBench, writeBenchReport, writeHtmlReport } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { listenForInterrupt } from '../interrupt-signal.js';
import { createProgress } from '../progress.js';
import type { Progress } from '../progress.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';

interface BenchOptions extends RuntimeCommandOptions {
  readonly preset: string;
  readonly out: string;
  readonly html?: string;
}

/** `kreplay bench`: a preset's sweep with its baselines, written as JSON (and HTML), summarised as a table. */
export function benchCommand(io: CliIo): Command {
  return withRuntimeOptions(new Command('bench').description('measure what replay costs across a preset sweep, against baselines measured in the same run'))
    .addOption(new Option('--preset <name>', 'what to sweep').choices(benchPresetNames).default('quick'))
    .requiredOption('--out <file>', 'where to write the JSON report')
    .option('--html <file>', 'also write a self-contained HTML report with charts')
    .action(async (options: BenchOptions) => {
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      using interruption = listenForInterrupt(io, 'writing what was measured so far');
      let progress: Progress | undefined;
      const report = await runBench(runtime, {
        configuration: benchPreset(options.preset),
        signal: interruption.signal,
        onProgress: ({ done, total }) => (progress ??= createProgress(io, `bench ${options.preset}`, total)).update(done),
      }).finally(() => progress?.done());
      await writeBenchReport(options.out, report);
      if (options.html !== undefined) await writeHtmlReport(options.html, report);
      io.stdout(formatReportTable(report));
      if (!report.complete) {
        const message = `[cli] [bench] interrupted: wrote the ${report.rows.length} runs measured so far to ${options.out} (complete: false). Run kreplay bench again to measure everything.`;
        throw new KreplayError({ packageName: 'cli', component: 'bench', message });
      }
    });
}
