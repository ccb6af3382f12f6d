import { checkPostLaunchHashes, openCapture, UnsupportedError } from '@kreplay/native';
import type { CaptureFolder, CaptureGraphNode, CaptureLaunch, CaptureRelocation, CaptureReplay, PostLaunchCheck, Queue } from '@kreplay/native';
import { formatBytes, strategyByName } from '@kreplay/bench';
import { createReplayEngine, fixedPasses } from '@kreplay/replay';
import type { QuiesceMode, ReplayEngine, VerificationStatus, VerifyMode } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { runCaptureRange, type CaptureRangeContext, type CaptureRangeRow } from './capture-range-replay.js';
import { defaultCaptureRange, describeRangeChoice, describeSequences, planCaptureRanges, type CaptureRangeChoice } from './capture-ranges.js';
import { captureUnits, dispatchCaptureGraph, type CaptureUnit } from './capture-graph-units.js';
import { capturedGraphName, capturedLaunchName, defaultGraphProfiling, graphNodeOf, type GraphProfiling } from './graph-profiling.js';
import { terminalText } from './terminal-text.js';

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
  /** `--graph-profiling`: kernel nodes of captured graph launches each alone in their range (`node`, the default), or each graph launch as one graph (`graph`). */
  readonly graphProfiling?: GraphProfiling;
  /** Called after each launch or range with how many launches are done. */
  readonly onLaunch?: (done: number) => void;
}

/**
 * What a launch's replay came to: `reproduced` (with `--verify full`: its memory after equals the
 * program's, and its passes agree), `mismatch` (it does not, or passes differed), `failed` (it could
 * not be made or run), `declined` (the engine ran it, or its range, once instead of replaying it,
 * e.g. its snapshot did not fit `--host-limit`: `declineReason` says why; its memory after, when
 * checked, equals the program's), `unchecked` (no post-launch check without `--verify full`).
 */
export type CaptureLaunchOutcome = 'reproduced' | 'mismatch' | 'failed' | 'declined' | 'unchecked';

/** One captured launch's row of `kreplay replay --capture`. */
export interface CaptureLaunchRow {
  readonly sequence: number;
  /** Its function; for a kernel node of a graph launch, with `[graph G node N, launch K]` after it. */
  readonly function: string;
  /** Where it sat in a graph launch, when it was captured as a kernel node of one. */
  readonly graph?: CaptureGraphNode;
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
  /** `--graph-profiling`: `node` (kernel nodes of graph launches replayed in ranges, as other launches) or `graph` (each captured graph launch replayed as one graph, a range of its own). */
  readonly graphProfiling: GraphProfiling;
  /** One row per launch, by sequence. */
  readonly launches: readonly CaptureLaunchRow[];
  /** The ranges of two or more launches, in the order they ran; a launch alone has none. */
  readonly ranges: readonly CaptureRangeRow[];
  /** What the captured sequences' reader said (a version 1 capture, a launch whose predecessor is not there). */
  readonly notes: readonly string[];
  /** The memory regions not at their captured addresses: where they went and why. */
  readonly relocations: readonly CaptureRelocation[];
  /** Launches replayed (all their passes) whose memory after, with `--verify full`, equals the program's. */
  readonly reproduced: number;
  /** `sequence function` of each launch that mismatched. */
  readonly mismatched: readonly string[];
  /** `sequence function: error` of each launch that failed. */
  readonly failed: readonly string[];
  /** `sequence function: reason` of each launch run once instead of replayed. */
  readonly declined: readonly string[];
  /** The reason of each damaged record of the folder (not replayed), led by its file. */
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
  const graphProfiling = options.graphProfiling ?? defaultGraphProfiling;
  const plan = planCaptureRanges(folder, choice);
  const context: CaptureRangeContext = { replay, engine, queue, tracker, verify: options.verify };
  const rows: CaptureLaunchRow[] = [];
  const ranges: CaptureRangeRow[] = [];
  for (const unit of captureUnits(plan.ranges, graphProfiling)) {
    const { launches } = unit;
    if (unit.kind === 'range' && launches.length === 1) rows.push(await replayAlone(replay, engine, queue, launches[0]!, options.verify));
    else rows.push(...(await replayRange(context, unit, ranges)));
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
    graphProfiling,
    launches: rows,
    ranges,
    notes: plan.notes,
    relocations: [...replay.relocations],
    reproduced: rows.filter((row) => row.outcome === 'reproduced').length,
    mismatched: rows.filter((row) => row.outcome === 'mismatch').map(name),
    failed: rows.filter((row) => row.outcome === 'failed').map((row) => `${name(row)}: ${row.error}`),
    declined: rows.filter((row) => row.outcome === 'declined').map((row) => `${name(row)}: ${row.declineReason}`),
    damaged: folder.damaged.map((damaged) => damaged.reason),
    seconds: (performance.now() - started) / 1000,
  };
}

/** What a launch's replay came to, from the engine's result (failed, declined) and the post-launch check. */
function outcomeOf(failed: boolean, declined: boolean, verification: VerificationStatus, postLaunch: PostLaunchCheck | null): CaptureLaunchOutcome {
  if (failed) return 'failed';
  if (verification === 'mismatch' || postLaunch?.reproduced === false) return 'mismatch';
  if (declined) return 'declined';
  return postLaunch === null ? 'unchecked' : 'reproduced';
}

/** One launch replayed alone, from its own memory (`--range 1`). */
async function replayAlone(replay: CaptureReplay, engine: ReplayEngine, queue: Queue, launch: CaptureLaunch, verify: VerifyMode): Promise<CaptureLaunchRow> {
  const base = launchBase(launch, null);
  try {
    const dispatch = await replay.prepare(launch);
    const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
    const postLaunch = verify === 'full' && result.failure === undefined ? await checkPostLaunchHashes(queue, dispatch.expectedPageHashes) : null;
    return {
      ...base,
      outcome: outcomeOf(result.failure !== undefined, result.declineReason !== undefined, result.verification.status, postLaunch),
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

/** The fields that name a launch's row: its sequence, its name (by graph and node inside a graph launch), its range. */
function launchBase(launch: CaptureLaunch, range: number | null): Pick<CaptureLaunchRow, 'sequence' | 'function' | 'range' | 'graph'> {
  const graph = graphNodeOf(launch);
  return { sequence: launch.sequence, function: capturedLaunchName(launch), ...(graph !== undefined && { graph }), range };
}

function failedRow(base: Pick<CaptureLaunchRow, 'sequence' | 'function' | 'range' | 'graph'>, error: string): CaptureLaunchRow {
  return { ...base, outcome: 'failed', replayed: false, passes: 0, verification: 'not-run', nondeterministic: false, bytesCopied: 0, bytesPrepared: 0, relocatedRegions: 0, wallMs: 0, postLaunch: null, error, notes: [] };
}

/**
 * A range of launches replayed as one unit (a captured graph launch with `--graph-profiling graph`:
 * replayed as one graph): its row added to `ranges`, one row per launch returned.
 */
async function replayRange(context: CaptureRangeContext, unit: CaptureUnit, ranges: CaptureRangeRow[]): Promise<CaptureLaunchRow[]> {
  const { launches } = unit;
  const run = unit.kind === 'graph' ? await runCaptureRange(context, launches, dispatchCaptureGraph, unit.node) : await runCaptureRange(context, launches);
  const index = ranges.length;
  ranges.push(run.range);
  const { prepared, result } = run;
  if (prepared === null || result === null) return launches.map((launch) => failedRow(launchBase(launch, index), run.error ?? 'the range could not run'));
  const share = launches.length;
  return launches.map((launch, position) => {
    const { dispatch, bytesBefore } = prepared.launches[position]!;
    const postLaunch = run.checks?.[position] ?? null;
    const failed = result.failure !== undefined || run.error !== undefined;
    return {
      ...launchBase(launch, index),
      outcome: outcomeOf(failed, result.declineReason !== undefined, result.verification.status, postLaunch),
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

/** The terminal form: the ranges, one line per launch, the counts, then each damaged record. Capture-supplied text is escaped ({@link terminalText}). */
export function describeCaptureReplay(report: CaptureReplayReport): string {
  const lines = [
    `${report.strategy} on ${report.driver} (${terminalText(report.device)}, tier ${report.tier}): ${report.launches.length} captured launches of ${report.capture}, ${report.passes} passes each, verify ${report.verify}; ${describeRangeChoice(report.range, report.rangeLength)}${report.graphProfiling === 'graph' || report.launches.some((row) => row.graph !== undefined) ? `; graph profiling ${report.graphProfiling}` : ''}`,
  ];
  for (const note of report.notes) lines.push(`  note: ${terminalText(note)}`);
  report.ranges.forEach((range, index) => {
    const restored = range.replayed ? `${range.passes} passes, ${formatBytes(range.bytesCopied)} restored` : 'run once';
    const graph = range.graph === undefined ? '' : `${terminalText(capturedGraphName(range.graph, range.launches.length))} as one graph, `;
    lines.push(
      `  range ${index}: ${graph}launches ${describeSequences(range.launches)} (${range.launches.length}): ${restored}, ${formatBytes(range.bytesBefore)} copied before launches, ${range.wallMs.toFixed(2)} ms wall, ${range.wallMsPerLaunch.toFixed(2)} ms per launch, verification ${range.verification}`,
    );
    if (range.declineReason) lines.push(`    declined: ${terminalText(range.declineReason)}`);
    if (range.error) lines.push(`    error: ${terminalText(range.error)}`);
  });
  for (const row of report.launches) {
    const post = row.postLaunch === null ? '' : row.postLaunch.reproduced ? `; memory after = the program's (${row.postLaunch.pagesCompared} pages)` : `; memory after differs from the program's in ${row.postLaunch.pagesMismatched} of ${row.postLaunch.pagesCompared} pages`;
    const moved = row.relocatedRegions > 0 ? `, ${row.relocatedRegions} region${row.relocatedRegions === 1 ? '' : 's'} relocated` : '';
    const passes = row.range === null ? `${row.replayed ? `${row.passes} passes, ${formatBytes(row.bytesCopied)} copied` : 'run once'}${moved}` : `in range ${row.range}${moved}`;
    lines.push(`  ${row.outcome.padEnd(10)} ${row.sequence} ${terminalText(row.function)}: ${passes}, verification ${row.verification}${row.nondeterministic ? ' (nondeterministic)' : ''}${post}`);
    for (const mismatch of row.postLaunch?.mismatches ?? []) {
      const shown = mismatch.pages.slice(0, 8).join(', ');
      lines.push(`    differs: ${mismatch.kind}${mismatch.label ? ` ${terminalText(mismatch.label)}` : ''} at 0x${mismatch.address.toString(16)} (${mismatch.bytes} bytes), pages ${shown}${mismatch.pages.length > 8 ? `, ... (${mismatch.pages.length})` : ''}`);
    }
    if (row.range === null && row.declineReason) lines.push(`    declined: ${terminalText(row.declineReason)}`);
    if (row.range === null && row.error) lines.push(`    error: ${terminalText(row.error)}`);
  }
  const total = report.launches.length + report.damaged.length;
  const unchecked = report.launches.filter((row) => row.outcome === 'unchecked').length;
  const checked = report.verify === 'full' ? `reproduced ${report.reproduced}/${total}` : `${unchecked} replayed without a post-launch check (--verify full checks)`;
  const mismatched = report.mismatched.length > 0 ? `; mismatch ${report.mismatched.length}: ${terminalText(report.mismatched.join(', '))}` : '';
  const failed = report.failed.length > 0 ? `; failed ${report.failed.length}` : '';
  const declined = report.declined.length > 0 ? `; declined ${report.declined.length} (run once, not replayed)` : '';
  const damaged = report.damaged.length > 0 ? `; damaged ${report.damaged.length} (not replayed)` : '';
  lines.push(`  ${checked}${mismatched}${failed}${declined}${damaged}; ${report.seconds.toFixed(3)} s`);
  for (const reason of report.damaged) lines.push(`  damaged, not replayed: ${terminalText(reason)}`);
  return `${lines.join('\n')}\n`;
}
