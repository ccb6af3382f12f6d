import { checkPostLaunchHashes, openCapture, UnsupportedError } from '@kreplay/native';
import type { CaptureFolder, CaptureLaunch, CaptureRelocation, CaptureReplay, PostLaunchCheck, Queue } from '@kreplay/native';
import { formatBytes, strategyByName } from '@kreplay/bench';
import { createReplayEngine, fixedPasses } from '@kreplay/replay';
import type { QuiesceMode, ReplayEngine, VerificationStatus, VerifyMode } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { runCaptureRange, type CaptureRangeContext, type CaptureRangeRow } from './capture-range-replay.js';
import { defaultCaptureRange, describeRangeChoice, describeSequences, planCaptureRanges, type CaptureRangeChoice } from './capture-ranges.js';

export type { CaptureRangeRow } from './capture-range-replay.js';

/** How `kreplay replay --capture` replays. */
export interface CaptureReplayOptions {
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  readonly passes: number;
  readonly verify: VerifyMode;
  readonly quiesce: QuiesceMode;
  readonly hostBytesLimit?: number;
  /** Launches per range: `auto` (whole captured sequences, up to captureRangeCap launches) or K; default `auto` on format version 2, else 1. */
  readonly range?: CaptureRangeChoice;
  /** Called after each launch or range with how many launches are done. */
  readonly onLaunch?: (done: number) => void;
}

/**
 * What a launch's replay came to: `reproduced` (with `--verify full`: its memory after equals the
 * program's, and its passes agree), `mismatch` (it does not, or passes differed), `failed` (it could
 * not be made or run), `unchecked` (no post-launch check without `--verify full`).
 */
export type CaptureLaunchOutcome = 'reproduced' | 'mismatch' | 'failed' | 'unchecked';

/** One captured launch's row of `kreplay replay --capture`. */
export interface CaptureLaunchRow {
  readonly sequence: number;
  readonly function: string;
  /** The range it ran in (an index into `ranges`), or null when it ran alone. */
  readonly range: number | null;
  readonly outcome: CaptureLaunchOutcome;
  readonly replayed: boolean;
  readonly passes: number;
  /** Pass-to-pass verification (see @kreplay/replay). */
  readonly verification: VerificationStatus;
  readonly nondeterministic: boolean;
  /** Bytes the snapshot copied; in a range, the range's shared evenly by its launches. */
  readonly bytesCopied: number;
  /** Bytes written to make the memory as it was before the launch (in a range: before the first, the range's preparation; before the others, their copies before). */
  readonly bytesPrepared: number;
  /** How many of the capture's memory regions are not at their captured addresses (the driver would not place them there). */
  readonly relocatedRegions: number;
  /** Host wall milliseconds; in a range, the range's shared evenly by its launches. */
  readonly wallMs: number;
  /** With `--verify full`: the memory after against the program's post-launch hashes (in a range, from the program's memory before the launch). */
  readonly postLaunch: PostLaunchCheck | null;
  readonly declineReason?: string;
  readonly error?: string;
  readonly notes: readonly string[];
}

/** What `kreplay replay --capture --json` prints. */
export interface CaptureReplayReport {
  readonly capture: string;
  readonly driver: string;
  readonly device: string;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  readonly passes: number;
  readonly verify: VerifyMode;
  /** `--range`: `auto` or launches per range. */
  readonly range: CaptureRangeChoice;
  /** The most launches in one range. */
  readonly rangeLength: number;
  /** One row per launch, by sequence. */
  readonly launches: readonly CaptureLaunchRow[];
  /** The ranges of two or more launches, in the order they ran; a launch alone has none. */
  readonly ranges: readonly CaptureRangeRow[];
  /** What the captured sequences' reader said (a version 1 capture, a launch whose predecessor is not there). */
  readonly notes: readonly string[];
  /** The memory regions not at their captured addresses: where they went and why. */
  readonly relocations: readonly CaptureRelocation[];
  readonly reproduced: number;
  /** `sequence function` of each launch that mismatched. */
  readonly mismatched: readonly string[];
  /** `sequence function: error` of each launch that failed. */
  readonly failed: readonly string[];
  /** Records of the folder that are damaged (not replayed). */
  readonly damaged: readonly string[];
  readonly seconds: number;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Replays every complete launch of a capture through the engine on one queue, in ranges
 * (`options.range`, planCaptureRanges: consecutive launches of a captured sequence, replayed as one
 * unit with `dispatchRange`, the program's work between them copied in before each); a range of
 * one launch is replayed alone: its memory made as it was before the program's launch, the launch
 * replayed with `options.passes` passes. With `verify: 'full'` the memory after each launch is
 * compared with the hashes the program's memory had.
 * @throws {UnsupportedError} when the capture cannot run on this device (another architecture).
 * @throws what openCapture throws (driver unavailable, an address that cannot be had).
 */
export async function replayCapture(folder: CaptureFolder, options: CaptureReplayOptions): Promise<CaptureReplayReport> {
  const started = performance.now();
  await using replay = await openCapture(folder);
  const { runtime, agent } = replay;
  using tracker = createTracker(runtime);
  await replay.map();
  using staging = createStaging(runtime, tracker, { hostBytesLimit: options.hostBytesLimit });
  using strategy = strategyByName(options.strategy, { tier: options.tier });
  await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes: fixedPasses(options.passes), quiesce: options.quiesce, verify: options.verify });
  await using queue = agent.createQueue();
  const choice = options.range ?? defaultCaptureRange(folder);
  const plan = planCaptureRanges(folder, choice);
  const context: CaptureRangeContext = { replay, engine, queue, tracker, verify: options.verify };
  const rows: CaptureLaunchRow[] = [];
  const ranges: CaptureRangeRow[] = [];
  for (const launches of plan.ranges) {
    if (launches.length === 1) rows.push(await replayAlone(replay, engine, queue, launches[0]!, options.verify));
    else rows.push(...(await replayRange(context, launches, ranges)));
    options.onLaunch?.(rows.length);
  }
  rows.sort((a, b) => a.sequence - b.sequence);
  const name = (row: CaptureLaunchRow) => `${row.sequence} ${row.function}`;
  return {
    capture: folder.directory,
    driver: runtime.driver,
    device: agent.info.name,
    strategy: strategy.name,
    tier: options.tier,
    passes: options.passes,
    verify: options.verify,
    range: choice,
    rangeLength: plan.rangeLength,
    launches: rows,
    ranges,
    notes: plan.notes,
    relocations: [...replay.relocations],
    reproduced: rows.filter((row) => row.outcome === 'reproduced').length,
    mismatched: rows.filter((row) => row.outcome === 'mismatch').map(name),
    failed: rows.filter((row) => row.outcome === 'failed').map((row) => `${name(row)}: ${row.error}`),
    damaged: folder.damaged.map((damaged) => damaged.reason),
    seconds: (performance.now() - started) / 1000,
  };
}

/** What a launch's replay came to, from the engine's result and the post-launch check. */
function outcomeOf(failed: boolean, verification: VerificationStatus, postLaunch: PostLaunchCheck | null): CaptureLaunchOutcome {
  if (failed) return 'failed';
  if (verification === 'mismatch' || postLaunch?.reproduced === false) return 'mismatch';
  return postLaunch === null ? 'unchecked' : 'reproduced';
}

/** One launch replayed alone, from its own memory (`--range 1`). */
async function replayAlone(replay: CaptureReplay, engine: ReplayEngine, queue: Queue, launch: CaptureLaunch, verify: VerifyMode): Promise<CaptureLaunchRow> {
  const base = { sequence: launch.sequence, function: launch.function, range: null };
  try {
    const dispatch = await replay.prepare(launch);
    const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
    const postLaunch = verify === 'full' && result.failure === undefined ? await checkPostLaunchHashes(queue, dispatch.expectedPageHashes) : null;
    return {
      ...base,
      outcome: outcomeOf(result.failure !== undefined, result.verification.status, postLaunch),
      replayed: result.replayed,
      passes: result.passes,
      verification: result.verification.status,
      nondeterministic: result.verification.nondeterministic,
      bytesCopied: result.bytesCopied,
      bytesPrepared: dispatch.bytesWritten,
      relocatedRegions: dispatch.relocatedRegions,
      wallMs: result.timings.wallMs,
      postLaunch,
      ...(result.declineReason !== undefined && { declineReason: result.declineReason }),
      ...(result.failure !== undefined && { error: `${result.failure.phase}: ${result.failure.error.message}` }),
      notes: [...dispatch.notes, ...result.notes],
    };
  } catch (error) {
    // A capture of another architecture cannot run at all: say so once, not per launch.
    if (error instanceof UnsupportedError) throw error;
    return failedRow(base, message(error));
  }
}

function failedRow(base: Pick<CaptureLaunchRow, 'sequence' | 'function' | 'range'>, error: string): CaptureLaunchRow {
  return { ...base, outcome: 'failed', replayed: false, passes: 0, verification: 'not-run', nondeterministic: false, bytesCopied: 0, bytesPrepared: 0, relocatedRegions: 0, wallMs: 0, postLaunch: null, error, notes: [] };
}

/** A range of launches replayed as one unit: its row added to `ranges`, one row per launch returned. */
async function replayRange(context: CaptureRangeContext, launches: readonly CaptureLaunch[], ranges: CaptureRangeRow[]): Promise<CaptureLaunchRow[]> {
  const run = await runCaptureRange(context, launches);
  const index = ranges.length;
  ranges.push(run.range);
  const { prepared, result } = run;
  if (prepared === null || result === null) return launches.map((launch) => failedRow({ sequence: launch.sequence, function: launch.function, range: index }, run.error ?? 'the range could not run'));
  const share = launches.length;
  return launches.map((launch, position) => {
    const { dispatch, bytesBefore } = prepared.launches[position]!;
    const postLaunch = run.checks?.[position] ?? null;
    const failed = result.failure !== undefined || run.error !== undefined;
    return {
      sequence: launch.sequence,
      function: launch.function,
      range: index,
      outcome: outcomeOf(failed, result.verification.status, postLaunch),
      replayed: result.replayed,
      passes: result.passes,
      verification: result.verification.status,
      nondeterministic: result.verification.nondeterministic,
      bytesCopied: result.bytesCopied / share,
      bytesPrepared: position === 0 ? prepared.bytesWritten : bytesBefore,
      relocatedRegions: dispatch.relocatedRegions,
      wallMs: result.timings.wallMs / share,
      postLaunch,
      ...(result.declineReason !== undefined && { declineReason: result.declineReason }),
      ...(run.range.error !== undefined && { error: run.range.error }),
      notes: [...dispatch.notes],
    };
  });
}

/** The terminal form: the ranges, one line per launch, then the counts. */
export function describeCaptureReplay(report: CaptureReplayReport): string {
  const lines = [
    `${report.strategy} on ${report.driver} (${report.device}, tier ${report.tier}): ${report.launches.length} captured launches of ${report.capture}, ${report.passes} passes each, verify ${report.verify}; ${describeRangeChoice(report.range, report.rangeLength)}`,
  ];
  for (const note of report.notes) lines.push(`  note: ${note}`);
  report.ranges.forEach((range, index) => {
    const restored = range.replayed ? `${range.passes} passes, ${formatBytes(range.bytesCopied)} restored` : 'run once';
    lines.push(
      `  range ${index}: launches ${describeSequences(range.launches)} (${range.launches.length}): ${restored}, ${formatBytes(range.bytesBefore)} copied before launches, ${range.wallMs.toFixed(2)} ms wall, ${range.wallMsPerLaunch.toFixed(2)} ms per launch, verification ${range.verification}`,
    );
    if (range.declineReason) lines.push(`    declined: ${range.declineReason}`);
    if (range.error) lines.push(`    error: ${range.error}`);
  });
  for (const row of report.launches) {
    const post = row.postLaunch === null ? '' : row.postLaunch.reproduced ? `; memory after = the program's (${row.postLaunch.pagesCompared} pages)` : `; memory after differs from the program's in ${row.postLaunch.pagesMismatched} of ${row.postLaunch.pagesCompared} pages`;
    const moved = row.relocatedRegions > 0 ? `, ${row.relocatedRegions} region${row.relocatedRegions === 1 ? '' : 's'} relocated` : '';
    const passes = row.range === null ? `${row.replayed ? `${row.passes} passes, ${formatBytes(row.bytesCopied)} copied` : 'run once'}${moved}` : `in range ${row.range}${moved}`;
    lines.push(`  ${row.outcome.padEnd(10)} ${row.sequence} ${row.function}: ${passes}, verification ${row.verification}${row.nondeterministic ? ' (nondeterministic)' : ''}${post}`);
    for (const mismatch of row.postLaunch?.mismatches ?? []) {
      const shown = mismatch.pages.slice(0, 8).join(', ');
      lines.push(`    differs: ${mismatch.kind}${mismatch.label ? ` ${mismatch.label}` : ''} at 0x${mismatch.address.toString(16)} (${mismatch.bytes} bytes), pages ${shown}${mismatch.pages.length > 8 ? `, ... (${mismatch.pages.length})` : ''}`);
    }
    if (row.range === null && row.declineReason) lines.push(`    declined: ${row.declineReason}`);
    if (row.range === null && row.error) lines.push(`    error: ${row.error}`);
  }
  const checked = report.verify === 'full' ? `reproduced ${report.reproduced}/${report.launches.length}` : `${report.launches.length} replayed without a post-launch check (--verify full checks)`;
  const mismatched = report.mismatched.length > 0 ? `; mismatch ${report.mismatched.length}: ${report.mismatched.join(', ')}` : '';
  const failed = report.failed.length > 0 ? `; failed ${report.failed.length}` : '';
  lines.push(`  ${checked}${mismatched}${failed}; ${report.seconds.toFixed(3)} s`);
  for (const damaged of report.damaged) lines.push(`  damaged, not replayed: ${damaged}`);
  return `${lines.join('\n')}\n`;
}
