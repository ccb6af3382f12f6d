import { Command, Option } from 'commander';
import { KreplayError, openRuntime } from '@kreplay/native';
import { captureReplayResultSchemaId, captureReplayResultVersion, formatBytes, formatRate, replayResultSchemaId, replayResultVersion, runReplayExperiment, strategyNames } from '@kreplay/bench';
import type { ReplayExperimentResult } from '@kreplay/bench';
import type { StagingTierChoice } from '@kreplay/snapshot';
import type { VerifyMode } from '@kreplay/replay';
import type { CliIo } from '../cli-io.js';
import { describeByteSize, parseByteSize, parseFraction, parsePositiveInteger } from '../byte-size.js';
import { damagedRecordsNote, readCaptureArgument } from '../capture-argument.js';
import { captureRangeCap, parseCaptureRange, type CaptureRangeChoice } from '../capture-ranges.js';
import { defaultGraphProfiling, graphProfilingHelp, parseGraphProfiling, type GraphProfiling } from '../graph-profiling.js';
import { describeCaptureReplay, replayCapture } from '../capture-replay-run.js';
import { capturedLaunchFailure } from '../captured-launch-failure.js';
import { capturedLaunchSelectionFlags, selectCapturedLaunches, withCapturedLaunchSelection, type CapturedLaunchSelection } from '../captured-launch-selection.js';
import type { CaptureReplayReport } from '../capture-replay-run.js';
import { checkDeviceMemoryFits } from '../device-memory-fit.js';
import { wasGiven } from '../option-dependencies.js';
import { createProgress } from '../progress.js';
import { terminalText } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import { checkJsonOutput, withJsonOutput, writeJsonThenPrint, type JsonOutputOptions } from '../json-output-file.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';

interface ReplayOptions extends RuntimeCommandOptions, JsonOutputOptions {
  readonly footprint: number;
  readonly writeFraction: number;
  readonly dispatches: number;
  readonly passes: number;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  readonly verify: VerifyMode;
  readonly quiesce: 'queue' | 'agent';
  readonly hostLimit?: number;
  readonly allAgents?: boolean;
  /** Dispatches per range of the workload, or (with --capture) `auto` or launches per range. */
  readonly range?: CaptureRangeChoice;
  /** With --capture: kernel nodes of captured graph launches each its own result, or each graph launch one. */
  readonly graphProfiling?: GraphProfiling;
  readonly capture?: string;
  readonly json?: boolean;
}

type ReplayCommandOptions = ReplayOptions & CapturedLaunchSelection;

/** The options of the generated workload, which a replay of a capture has no use for. */
const workloadFlags = ['--footprint', '--write-fraction', '--dispatches', '--all-agents', '--agents', '--device-memory'];

/**
 * `kreplay replay`: the default workload through the replay engine, and what it cost. With
 * `--verify restore|full`, a replayed dispatch that failed verification makes it fail (exit 1)
 * after the results are printed.
 */
export function replayCommand(io: CliIo): Command {
  const command = withRuntimeOptions(new Command('replay').description('replay a scatter-write workload, or the launches of a capture (--capture), and report bytes and time'))
    .addOption(new Option('--footprint <bytes>', 'device memory the workload holds').argParser(parseByteSize).default(64 * 2 ** 20, describeByteSize(64 * 2 ** 20)))
    .option('--write-fraction <f>', "fraction of the footprint's pages each dispatch writes", parseFraction, 0.01)
    .option('--dispatches <n>', 'dispatches to replay', parsePositiveInteger, 20)
    .option('--passes <n>', 'passes per dispatch', parsePositiveInteger, 5)
    .addOption(new Option('--strategy <name>', 'snapshot strategy').choices(strategyNames).default('dirty-pages'))
    .addOption(new Option('--tier <tier>', 'staging tier').choices(['auto', 'device', 'host-pinned', 'host-pageable']).default('auto'))
    .addOption(new Option('--verify <mode>', 'verification').choices(['off', 'restore', 'full']).default('off'))
    .addOption(new Option('--quiesce <scope>', 'what to drain before a window').choices(['queue', 'agent']).default('queue'))
    .option('--host-limit <bytes>', "host bytes staging may hold, shared by all agents (default: this machine's memory less a reserve of max(1 GiB, 10%) and, on the host driver, its device memory)", parseByteSize)
    .option('--all-agents', 'replay on every agent at once (e.g. with --agents N on the host driver)')
    .option(
      '--range <k>',
      `replay ranges of k consecutive dispatches as one unit each (one capture, the whole range per pass); with --capture, auto (whole captured sequences, up to ${captureRangeCap} launches; the default on a capture of format version 2) or k launches of a captured sequence (1: each launch alone)`,
      parseCaptureRange,
    )
    .option('--graph-profiling <mode>', `with --capture: ${graphProfilingHelp} (default: ${defaultGraphProfiling})`, parseGraphProfiling)
    .option('--capture <dir>', 'replay every launch of a capture folder (kreplay capture -o) instead of the workload; with --verify full also check the memory after each launch against the program\'s (cuda driver); exits 1 when a launch mismatches, fails or is damaged, and counts a launch run once instead of replayed (declined) apart')
    .option('--json', 'print one JSON object');
  return withCapturedLaunchSelection(withJsonOutput(command), 'with --capture')
    .action(async (options: ReplayCommandOptions, command: Command) => {
      if (options.capture !== undefined) {
        await replayCaptureCommand(options.capture, options, command, io);
        return;
      }
      const selecting = capturedLaunchSelectionFlags.find((flag) => wasGiven(command, flag));
      if (selecting !== undefined) throw new UsageError('replay', `${selecting} selects launches of a capture, and there is no --capture`, `Pass --capture DIR, or leave out ${selecting}`);
      if (options.range === 'auto') throw new UsageError('replay', '--range auto replays the captured sequences of a capture, and there is no --capture', 'Pass --range K (dispatches per range), or --capture DIR');
      if (options.graphProfiling !== undefined) throw new UsageError('replay', '--graph-profiling says how kernels captured inside CUDA graph launches are replayed, and there is no --capture', 'Pass --capture DIR, or leave out --graph-profiling');
      await checkJsonOutput('replay', options);
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      const agents = options.allAgents ? runtime.agents : undefined;
      checkDeviceMemoryFits(runtime, { command: 'replay', flag: '--footprint', given: `--footprint ${describeByteSize(options.footprint)}`, bytes: options.footprint, ...(agents && { agents }) });
      const progress = createProgress(io, { label: 'replay', total: options.dispatches, unit: 'dispatches' });
      const result = await runReplayExperiment(runtime, {
        strategy: options.strategy,
        tier: options.tier,
        footprintBytes: options.footprint,
        writeFraction: options.writeFraction,
        dispatches: options.dispatches,
        passes: options.passes,
        verify: options.verify,
        quiesce: options.quiesce,
        hostBytesLimit: options.hostLimit,
        allAgents: options.allAgents ?? false,
        ...(options.range === undefined ? {} : { range: options.range }),
        onDispatch: (index) => progress.update(index + 1),
      }).finally(() => progress.done());
      const document = { schema: replayResultSchemaId, schemaVersion: replayResultVersion, ...result };
      await writeJsonThenPrint(io, options, document, options.json ? `${JSON.stringify(document)}\n` : describeReplay(result));
      const failed = verificationFailure(result);
      if (failed !== undefined) throw failed;
    });
}

/** `kreplay replay --capture DIR`: checks what it was given, replays every launch, prints, fails on a mismatch. */
async function replayCaptureCommand(directory: string, options: ReplayCommandOptions, command: Command, io: CliIo): Promise<void> {
  const misplaced = workloadFlags.find((flag) => wasGiven(command, flag));
  if (misplaced !== undefined) throw new UsageError('replay', `${misplaced} describes the generated workload, which --capture replaces`, `Leave out ${misplaced}`);
  if (options.driver !== 'auto' && options.driver !== 'cuda') {
    throw new UsageError(
      'replay',
      `--capture needs the cuda driver, not --driver ${options.driver}: a capture is re-created at its captured addresses with CUDA's virtual memory calls`,
      'Leave out --driver (or pass --driver cuda) on a machine with an NVIDIA GPU',
    );
  }
  const wholeFolder = await readCaptureArgument(directory, 'replay', `--capture ${directory}`);
  if (wholeFolder.launches.length === 0) {
    throw new UsageError('replay', `--capture ${directory} holds no complete launch${damagedRecordsNote(wholeFolder)}`, 'Capture the program again');
  }
  const folder = selectCapturedLaunches(wholeFolder, options, 'replay');
  await checkJsonOutput('replay', options, { '--capture': directory });
  const progress = createProgress(io, { label: 'replay', total: folder.launches.length, unit: 'launches' });
  const report = await replayCapture(folder, {
    strategy: options.strategy,
    tier: options.tier,
    passes: options.passes,
    verify: options.verify,
    quiesce: options.quiesce,
    ...(options.hostLimit !== undefined && { hostBytesLimit: options.hostLimit }),
    ...(options.range !== undefined && { range: options.range }),
    ...(options.graphProfiling !== undefined && { graphProfiling: options.graphProfiling }),
    onLaunch: (done) => progress.update(done),
  }).finally(() => progress.done());
  const document = { schema: captureReplayResultSchemaId, schemaVersion: captureReplayResultVersion, ...report };
  await writeJsonThenPrint(io, options, document, options.json ? `${JSON.stringify(document)}\n` : describeCaptureReplay(report));
  const failure = captureReplayFailure(report);
  if (failure !== undefined) throw failure;
}

/**
 * The error of a capture replay in which a launch mismatched or failed, or a record of the folder
 * was damaged (not replayed); undefined when none was. A launch declined (run once, not replayed)
 * is no failure: the summary counts it apart, and its memory after, when checked, was the program's.
 */
export function captureReplayFailure(report: CaptureReplayReport): KreplayError | undefined {
  return capturedLaunchFailure({
    command: 'replay',
    what: 'did not reproduce the program',
    launches: report.launches.filter((row) => row.outcome === 'mismatch' || row.outcome === 'failed').map((row) => `${row.sequence} ${terminalText(row.function)} (${row.outcome})`),
    launchFix: report.launches.some((row) => row.outcome === 'mismatch')
      ? "run with --json to see the pages that differ, and try another --strategy to tell a strategy's fault from a nondeterministic kernel"
      : "see each failed launch's error above (under failed with --json)",
    damaged: report.damaged.length,
    ran: report.launches.length,
  });
}

/**
 * The error of an experiment in which a replayed dispatch failed verification (a mismatch);
 * undefined when none did. A verification that could not be completed is no failure: it proved
 * nothing either way, and the summary says so.
 */
export function verificationFailure(result: ReplayExperimentResult): KreplayError | undefined {
  const { mismatch } = result.verification;
  if (mismatch === 0) return undefined;
  const { unit, replayed } = verifiedUnits(result);
  const message = `[cli] [replay] ${mismatch} of ${replayed} replayed ${unit} failed verification: memory before a pass, or a pass's output, differed from pass 1's. Run with --json to see which, and try another --strategy to tell a strategy's fault from a nondeterministic kernel.`;
  return new KreplayError({ packageName: 'cli', component: 'replay', message });
}

/** What the experiment's verification came to, in words: `nothing verified` when no dispatch was. */
export function describeVerification(result: ReplayExperimentResult): string {
  const { verified, mismatch, incomplete } = result.verification;
  const { unit, replayed } = verifiedUnits(result);
  const parts: string[] = [];
  if (mismatch > 0) parts.push(`verification FAILED for ${mismatch} ${unit}`);
  if (incomplete > 0) parts.push(`verification incomplete for ${incomplete} ${unit} (a hash could not be taken; nothing proven either way)`);
  if (verified > 0) parts.push(`verified ${verified}/${replayed} replayed`);
  return parts.length === 0 ? 'nothing verified' : parts.join('; ');
}

/** What verification counts: dispatches, or with `--range` ranges (each verified as one unit). */
function verifiedUnits(result: ReplayExperimentResult): { readonly unit: string; readonly replayed: number } {
  if (result.range === null) return { unit: 'dispatch(es)', replayed: result.replayedDispatches };
  return { unit: 'range(s)', replayed: result.ranges.filter((range) => range.replayed).length };
}

/** `ranges of K: replayed R/N ranges`, with `--range`; empty without. */
export function describeRanges(result: ReplayExperimentResult): string {
  if (result.range === null) return '';
  const replayed = result.ranges.filter((range) => range.replayed).length;
  return `ranges of ${result.range} dispatches: replayed ${replayed}/${result.ranges.length} ranges`;
}

/** The declines counted by reason, e.g. `declined 3: snapshot-declined 3`; empty when none. */
export function describeDeclines(result: ReplayExperimentResult): string {
  const counts = Object.entries(result.declinedByReason).filter(([, count]) => (count ?? 0) > 0);
  if (counts.length === 0) return '';
  const total = counts.reduce((sum, [, count]) => sum + (count ?? 0), 0);
  return `declined ${total}: ${counts.map(([code, count]) => `${code} ${count}`).join(', ')}`;
}

/** The terminal summary of a replay experiment. */
export function describeReplay(result: ReplayExperimentResult): string {
  const declines = describeDeclines(result);
  const share = result.bytesModel > 0 ? ((100 * result.bytesCopied) / result.bytesModel).toFixed(2) : '0';
  const lines = [
    `${result.strategy} on ${result.driver} (${result.tier}): ${result.dispatches} dispatches x ${result.passes} passes over ${formatBytes(result.footprintBytes)}`,
    `  copied ${formatBytes(result.bytesCopied)} = ${share}% of the reference design's ${formatBytes(result.bytesModel)}`,
    `  hashed ${formatBytes(result.bytesHashed)}; host staging high-water ${formatBytes(result.hostHighWaterBytes)}${result.hostBytesLimit === null ? '' : ` of a ${formatBytes(result.hostBytesLimit)} limit`}`,
    `  ${result.seconds.toFixed(3)} s; replayed ${result.replayedDispatches}/${result.dispatches * result.agents.length}; ${describeVerification(result)}`,
    ...(result.range === null ? [] : [`  ${describeRanges(result)}`]),
    ...(declines === '' ? [] : [`  ${declines}`]),
    ...(result.agents.length > 1
      ? [
          ...result.agents.map((agent) => `  agent ${agent.agentId}: ${formatBytes(agent.bytesCopied)} copied, ${formatRate(agent.bytesPerSecond)}`),
          `  all agents: ${formatRate(result.aggregateBytesPerSecond)}`,
        ]
      : []),
    ...result.declined.slice(0, 3).map((reason) => `  declined: ${reason}`),
    ...result.notes.map((note) => `  note: ${note}`),
  ];
  return `${lines.join('\n')}\n`;
}
