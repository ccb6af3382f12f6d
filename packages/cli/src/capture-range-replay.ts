import { UnsupportedError } from '@kreplay/native';
import type { CaptureLaunch, CaptureRange, CaptureReplay, PostLaunchCheck, Queue } from '@kreplay/native';
import type { DispatchResult, RangeResult, ReplayEngine, VerificationStatus, VerifyMode } from '@kreplay/replay';
import type { CaptureGraphNode } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';

/** One range of `kreplay replay --capture`: consecutive launches of a captured sequence replayed as one unit. */
export interface CaptureRangeRow {
  /** The sequence of its first launch. */
  readonly first: number;
  /** The sequences of its launches, in order. */
  readonly launches: readonly number[];
  readonly replayed: boolean;
  /** Passes of the whole range. */
  readonly passes: number;
  /** Pass-to-pass verification of the range (see @kreplay/replay). */
  readonly verification: VerificationStatus;
  /** Bytes restored: what the snapshot copied (its capture and the restores between passes). */
  readonly bytesCopied: number;
  /** Bytes the copies before its launches write in one run of the range (the work between the program's launches; every pass repeats them). */
  readonly bytesBefore: number;
  /** Bytes written to make memory as it was before its first launch. */
  readonly bytesPrepared: number;
  /** Host milliseconds of the range through the engine (all its passes). */
  readonly wallMs: number;
  readonly wallMsPerLaunch: number;
  readonly declineReason?: string;
  readonly error?: string;
  readonly notes: readonly string[];
  /** With `--graph-profiling graph`: the captured graph launch the range is, replayed as one graph. */
  readonly graph?: CaptureGraphNode;
}

/** What a range's run came to: the range prepared, the engine's result and, with `--verify full`, each launch checked. */
export interface CaptureRangeRun {
  readonly range: CaptureRangeRow;
  readonly prepared: CaptureRange | null;
  /** A RangeResult, or for a graph launch the graph's DispatchResult. */
  readonly result: DispatchResult | null;
  /** Each launch's memory after against the program's; null without `--verify full` or when the range failed. */
  readonly checks: readonly PostLaunchCheck[] | null;
  /** Why it could not run at all (preparing failed). */
  readonly error?: string;
}

/** What a range is replayed with. */
export interface CaptureRangeContext {
  readonly replay: CaptureReplay;
  readonly engine: ReplayEngine;
  readonly queue: Queue;
  readonly tracker: Tracker;
  readonly verify: VerifyMode;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One run of a range through the engine, from its captured memory: CaptureReplay.prepareRange
 * (memory as before its first launch, the copies before each later launch staged in memory the
 * replay owns, tagged `excluded` so that no snapshot takes it), then `dispatchRange` with each
 * launch's copies before it.
 * @throws what prepareRange and dispatchRange throw.
 */
export async function dispatchCaptureRange(
  context: Omit<CaptureRangeContext, 'verify'>,
  launches: readonly CaptureLaunch[],
): Promise<{ readonly prepared: CaptureRange; readonly result: RangeResult }> {
  const { replay, engine, queue, tracker } = context;
  const prepared = await replay.prepareRange(launches);
  if (prepared.staging !== null) tracker.tag(prepared.staging.address, 'excluded');
  const result = await engine.dispatchRange({
    queue,
    dispatches: prepared.launches.map(({ dispatch, before }) => ({ kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch, before })),
  });
  return { prepared, result };
}

/** How a range's launches go through the engine: {@link dispatchCaptureRange}, or a captured graph launch's dispatch as one graph. */
export type CaptureRangeDispatcher = (
  context: Omit<CaptureRangeContext, 'verify'>,
  launches: readonly CaptureLaunch[],
) => Promise<{ readonly prepared: CaptureRange; readonly result: DispatchResult }>;

/**
 * Replays a range of captured launches through the engine as one unit ({@link dispatchCaptureRange},
 * or `dispatcher`), and with `verify: 'full'` runs it once more, checking the memory after each
 * launch against the program's (CaptureReplay.checkRange).
 * @throws {UnsupportedError} when the capture cannot run on this device (another architecture).
 */
export async function runCaptureRange(
  context: CaptureRangeContext,
  launches: readonly CaptureLaunch[],
  dispatcher: CaptureRangeDispatcher = dispatchCaptureRange,
  graph?: CaptureGraphNode,
): Promise<CaptureRangeRun> {
  const { replay, queue } = context;
  const sequences = launches.map((launch) => launch.sequence);
  const row = { first: sequences[0]!, launches: sequences, ...(graph !== undefined && { graph }) };
  let prepared: CaptureRange;
  let result: DispatchResult;
  try {
    ({ prepared, result } = await dispatcher(context, launches));
  } catch (error) {
    if (error instanceof UnsupportedError) throw error;
    const range: CaptureRangeRow = { ...row, replayed: false, passes: 0, verification: 'not-run', bytesCopied: 0, bytesBefore: 0, bytesPrepared: 0, wallMs: 0, wallMsPerLaunch: 0, error: message(error), notes: [] };
    return { range, prepared: null, result: null, checks: null, error: message(error) };
  }
  let checks: readonly PostLaunchCheck[] | null = null;
  let checkError: string | undefined;
  if (context.verify === 'full' && result.failure === undefined) {
    try {
      checks = (await replay.checkRange(launches, queue)).launches;
    } catch (error) {
      checkError = `the check of each launch failed: ${message(error)}`;
    }
  }
  const failure = result.failure === undefined ? checkError : `${result.failure.phase}: ${result.failure.error.message}`;
  const range: CaptureRangeRow = {
    ...row,
    replayed: result.replayed,
    passes: result.passes,
    verification: result.verification.status,
    bytesCopied: result.bytesCopied,
    bytesBefore: prepared.launches.reduce((sum, launch) => sum + launch.bytesBefore, 0),
    bytesPrepared: prepared.bytesWritten,
    wallMs: result.timings.wallMs,
    wallMsPerLaunch: result.timings.wallMs / launches.length,
    ...(result.declineReason !== undefined && { declineReason: result.declineReason }),
    ...(failure !== undefined && { error: failure }),
    notes: [...prepared.notes, ...result.notes],
  };
  return { range, prepared, result, checks, ...(checkError !== undefined && { error: checkError }) };
}
