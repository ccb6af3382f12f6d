import { Command, InvalidArgumentError, Option } from 'commander';
import { openRuntime } from '@kreplay/native';
import { formatBytes, formatMilliseconds, formatRate, measureReplayOverhead, overheadResultSchemaId, overheadResultVersion, overheadVariants, writeReportFile, writeReportFileSync } from '@kreplay/bench';
import type { OverheadResult, OverheadRow, WorkloadShape } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { describeByteSize, parseByteSize, parseFraction, parseNonNegativeInteger, parsePositiveInteger } from '../byte-size.js';
import { checkDeviceMemoryFits } from '../device-memory-fit.js';
import { wasGiven } from '../option-dependencies.js';
import { checkOutputPaths } from '../output-path.js';
import { createProgress } from '../progress.js';
import { repeatableChoiceOption } from '../repeatable-option.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';
import { UsageError } from '../usage-error.js';
import { InterruptedError } from '../interrupted-error.js';
import { listenForInterrupt } from '../interrupt-signal.js';
import { writeThenPrint } from '../write-then-print.js';

interface OverheadCommandOptions extends RuntimeCommandOptions {
  readonly shape: WorkloadShape[];
  readonly footprint: readonly Footprint[];
  readonly writeFraction: number;
  readonly dispatches: number;
  readonly passes: number;
  readonly maxSeconds: number;
  readonly warmup: number;
  readonly warmupSeconds: number;
  readonly variant?: string[];
  readonly phaseTimings?: boolean;
  readonly out?: string;
  readonly json?: boolean;
}

/**
 * `kreplay overhead`: what each replay variant adds per dispatch on workload shapes A and B. Ctrl-C
 * (SIGTERM) stops before the next variant, writes and prints what was measured and exits 130 (143).
 */
export function overheadCommand(io: CliIo): Command {
  return withRuntimeOptions(
    new Command('overhead').description('per-dispatch replay overhead of each strategy and tier against the run without replay, for workload shapes A and B'),
  )
    .addOption(repeatableChoiceOption('--shape <shape>', 'A (inference-like) or B (scattered writes); repeat for both', ['A', 'B']))
    .addOption(
      new Option('--footprint <sizes>', 'device memory the workload holds: a size (1GiB) or a share of the device memory (0.7x); a comma list (0.5x,0.7x,0.9x) runs each')
        .argParser(parseFootprints)
        .default([{ bytes: 2 ** 30 }], describeByteSize(2 ** 30)),
    )
    .option('--write-fraction <f>', "fraction of the footprint's pages each dispatch writes", parseFraction, 0.01)
    .option('--dispatches <n>', 'timed dispatches per variant', parsePositiveInteger, 1000)
    .option('--passes <n>', 'passes per dispatch', parsePositiveInteger, 5)
    .addOption(new Option('--max-seconds <s>', 'stop timing a variant after this many seconds').argParser(parsePositiveInteger).default(30, '30 s'))
    .option('--warmup <n>', 'untimed dispatches before each timing (the JavaScript engine optimizes the per-dispatch code only after some thousand)', parseNonNegativeInteger, 2000)
    .addOption(new Option('--warmup-seconds <s>', 'stop each warm-up after this many seconds').argParser(parsePositiveInteger).default(2, '2 s'))
    .addOption(repeatableChoiceOption('--variant <name>', 'only this variant (repeatable)', overheadVariants.map((variant) => variant.name)))
    .option('--phase-timings', 'time every phase of each window with device events (slower; off by default)')
    .option('-o, --out <file>', 'write the results as JSON')
    .option('--json', 'print the results as JSON')
    .action(async (options: OverheadCommandOptions, command: Command) => {
      if (options.warmup === 0 && wasGiven(command, '--warmup-seconds')) {
        throw new UsageError('overhead', '--warmup-seconds only applies with a warm-up, not --warmup 0', 'Leave out --warmup-seconds, or pass --warmup N');
      }
      await checkOutputPaths('overhead', { '--out': options.out });
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      for (const footprint of options.footprint) {
        if ('bytes' in footprint) checkDeviceMemoryFits(runtime, { command: 'overhead', flag: '--footprint', given: `--footprint ${describeByteSize(footprint.bytes)}`, bytes: footprint.bytes });
      }
      const results: OverheadResult[] = [];
      const document = () => ({ schema: overheadResultSchemaId, schemaVersion: overheadResultVersion, results });
      const json = () => `${JSON.stringify(document(), null, 2)}\n`;
      let written = false;
      using interruption = listenForInterrupt(io, 'writing what was measured so far', {
        saveNow: () => {
          if (written || options.out === undefined || results.length === 0) return;
          writeReportFileSync(options.out, json());
          io.stderr(`kreplay: quit; wrote the ${results.length} result(s) measured so far to ${options.out}\n`);
        },
      });
      const shapes = options.shape ?? ['A', 'B'];
      const variantsPerShape = options.variant?.length ?? overheadVariants.length;
      const progress = createProgress(io, { label: 'overhead', total: shapes.length * options.footprint.length * variantsPerShape, unit: 'variants' });
      let variantsStarted = 0;
      for (const [shape, footprint] of shapes.flatMap((shape) => options.footprint.map((footprint) => [shape, footprint] as const))) {
        if (interruption.signal.aborted) break;
        results.push(
          await measureReplayOverhead(runtime, {
            shape,
            ...('ofDevice' in footprint ? { footprintOfDevice: footprint.ofDevice } : { footprintBytes: footprint.bytes }),
            writeFraction: options.writeFraction,
            dispatches: options.dispatches,
            passes: options.passes,
            maxSecondsPerVariant: options.maxSeconds,
            warmupDispatches: options.warmup,
            maxWarmupSeconds: options.warmupSeconds,
            phaseTimings: options.phaseTimings === true,
            ...(options.variant && { variants: options.variant }),
            signal: interruption.signal,
            // Counted when the next one starts: a variant is done when the one after it begins.
            onVariant: () => progress.update(variantsStarted++),
          }).finally(() => progress.update(variantsStarted)),
        );
      }
      progress.done();
      const signal = interruption.received;
      if (signal !== undefined && results.length === 0) {
        const kept = options.out === undefined ? '' : `, so ${options.out} was not written (what it held is kept)`;
        throw new InterruptedError('overhead', `nothing was measured${kept}`, 'Run kreplay overhead again', signal);
      }
      const write = async () => {
        if (options.out === undefined) return;
        await writeReportFile(options.out, json());
        written = true;
      };
      await writeThenPrint(io, write, options.json ? `${JSON.stringify(document())}\n` : results.map(describeOverhead).join('\n'));
      if (signal !== undefined) {
        const kept = options.out === undefined ? 'printed the' : 'wrote the';
        const where = options.out === undefined ? '' : ` to ${options.out}`;
        throw new InterruptedError('overhead', `${kept} ${results.length} result(s) measured so far${where}`, 'Run kreplay overhead again to measure everything', signal);
      }
    });
}

/** A footprint of `--footprint`: bytes, or a share of the device memory. */
type Footprint = { readonly bytes: number } | { readonly ofDevice: number };

/** Parses `--footprint`: comma-separated sizes (`1GiB`) or shares of the device memory (`0.7x`, in (0, 1)). */
function parseFootprints(text: string): Footprint[] {
  return text.split(',').map((part) => {
    const share = /^\s*(\d*\.?\d+)\s*x\s*$/.exec(part);
    if (!share) return { bytes: parseByteSize(part) };
    const ofDevice = Number(share[1]);
    if (!(ofDevice > 0 && ofDevice < 1)) throw new InvalidArgumentError(`"${part}" is not a share of the device memory in (0, 1); write e.g. 0.7x.`);
    return { ofDevice };
  });
}

/** The first dispatch, the staging by tier and the host high-water of a replay variant. */
function stagingShare(row: OverheadRow): string {
  const first = row.firstDispatchMs === null ? '' : `; first dispatch ${formatMilliseconds(row.firstDispatchMs)} ms`;
  if (row.stagingBytesByTier === null) return first;
  const tiers = row.stagingBytesByTier;
  const ratio = row.hostHighWaterRatio === null ? '' : ` (${row.hostHighWaterRatio.toFixed(3)}x the host tier)`;
  return `${first}; staged ${formatBytes(tiers.device)} device, ${formatBytes(tiers['host-pinned'])} pinned, ${formatBytes(tiers['host-pageable'])} pageable; host staging high-water ${formatBytes(row.hostStagingHighWaterBytes ?? 0)}${ratio}`;
}

/** The engine's host time on the critical path of a dispatch, when the variant measured it. */
function hostShare(row: OverheadRow): string {
  if (row.hostBeforeEnqueueMs === null || row.hostAfterWaitMs === null) return '';
  return `; host ${(1000 * row.hostBeforeEnqueueMs).toFixed(1)} us before the first phase, ${(1000 * row.hostAfterWaitMs).toFixed(1)} us after the wait`;
}

/** How many dispatches warmed the variant up before its timing, and what they cost each. */
function warmupShare(row: OverheadRow): string {
  return row.warmupMs === null ? ', no warm-up' : ` after ${row.warmupDispatches} warm-up at ${formatMilliseconds(row.warmupMs)} ms`;
}

/** The terminal summary of one shape's overheads. */
export function describeOverhead(result: OverheadResult): string {
  const lines = [
    `shape ${result.shape} on ${result.device} (${result.driver}): ${formatBytes(result.footprintBytes)} (${result.footprintOfDevice.toFixed(2)}x the device memory), ${result.passes} passes, ${result.dispatches} dispatches after up to ${result.warmup.dispatches} warm-up (${result.warmup.maxSeconds} s), phases ${result.phaseTimings ? 'timed' : 'untimed'}`,
    `  bare dispatch ${formatMilliseconds(result.bareMs)} ms; ${result.passes} passes without replay ${formatMilliseconds(result.passesWithoutReplayMs)} ms; candidates ${formatBytes(result.candidateBytes)}; hash ${formatRate(result.rates.hashBytesPerSecond)}, copy ${formatRate(result.rates.copyBytesPerSecond)}, pinned ${formatRate(result.rates.pinnedDeviceToHostBytesPerSecond)} D2H / ${formatRate(result.rates.pinnedHostToDeviceBytesPerSecond)} H2D; floor ${formatMilliseconds(result.floorMs)} ms`,
    ...result.rows.map((row) =>
      row.available
        ? `  ${row.variant.padEnd(17)} overhead ${formatMilliseconds(row.overheadMs).padStart(7)} ms/dispatch (replay ${formatMilliseconds(row.replayMs)} ms against ${formatMilliseconds(row.passesWithoutReplayMs)} ms without, over ${row.dispatchesTimed}${warmupShare(row)}), copied ${formatBytes(row.bytesCopiedPerDispatch ?? 0)}/dispatch, ${row.verified === null ? 'nothing verified' : `verified ${String(row.verified)}`}${row.floorRatio === null ? '' : `, ${row.floorRatio.toFixed(2)}x the floor`}${row.pinnedRateVsRawCopy === null ? '' : `, ${(100 * row.pinnedRateVsRawCopy).toFixed(1)}% of a raw pinned copy`}${hostShare(row)}${stagingShare(row)}`
        : `  ${row.variant.padEnd(17)} not run: ${row.note}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
