import type { Queue } from '@kreplay/native';
import type { DispatchResult, ReplayEngine } from '@kreplay/replay';
import type { ByteAccount, StagingTier } from '@kreplay/snapshot';
import type { ProfileWorkload } from './profile-workload.js';

/** What one dispatch's pass provider collected, as `kreplay profile` reads it. */
export interface CollectedMetrics {
  readonly metrics: Readonly<Record<string, number>> | null;
  readonly error?: { readonly code: string; readonly message: string };
}

/** One dispatch's row of `kreplay profile`. */
export interface ProfileRow {
  readonly dispatch: number;
  /** The kernel's name, for a captured launch (`profile capture:DIR`); absent for the generated workloads. */
  readonly kernel?: string;
  /** The range the dispatch ran in (an index into `ranges`), or null when it ran on its own. */
  readonly range: number | null;
  readonly replayed: boolean;
  readonly passes: number;
  /** Host wall milliseconds of the dispatch; in a range, the range's wall time shared evenly by its dispatches. */
  readonly wallMs: number;
  /** Bytes the snapshot copied for the dispatch; in a range, the range's bytes shared evenly by its dispatches. */
  readonly bytesCopied: number;
  readonly metrics: Readonly<Record<string, number>> | null;
  /** With more than one sample (`profile capture: --samples N`): each sample's values, in order; `metrics` holds their medians. */
  readonly sampleMetrics?: readonly (Readonly<Record<string, number>> | null)[];
  readonly error?: string;
  readonly declineReason?: string;
}

/**
 * One range of `kreplay profile --range K`: K consecutive dispatches replayed as one unit (for
 * `capture:`, consecutive launches of a captured sequence).
 */
export interface ProfileRange {
  /** The index of its first dispatch (for `capture:`, the sequence of its first launch). */
  readonly first: number;
  readonly dispatches: number;
  /** `capture:`: the sequences of its launches, in order. */
  readonly launches?: readonly number[];
  readonly replayed: boolean;
  /** Passes of the whole sequence (of each sample). */
  readonly passes: number;
  /** Host milliseconds of the range (of all its samples). */
  readonly wallMs: number;
  /** `wallMs` per dispatch of the range. */
  readonly wallMsPerDispatch: number;
  /** Bytes restored: what the snapshot copied, its capture and the restores between passes (of all samples). */
  readonly bytesCopied: number;
  /** `capture:`: bytes the copies before its launches (the program's work between them) write in one run of the range. */
  readonly bytesBefore?: number;
  /** `capture:`: bytes written to make memory as before its first launch (of all samples). */
  readonly bytesPrepared?: number;
  /** Where the range's snapshot was staged (null when it was not replayed). */
  readonly tier: StagingTier | null;
  /** The range's bytes by direction, hashed and staged. */
  readonly bytes: ByteAccount;
  readonly declineReason?: string;
  readonly error?: string;
}

/** What {@link profileDispatches} returns. */
export interface ProfiledDispatches {
  readonly rows: readonly ProfileRow[];
  readonly ranges: readonly ProfileRange[];
}

/**
 * Runs `dispatches` dispatches of `workload` on `queue` through `engine`: each on its own when
 * `range` is 1, else in ranges of `range` consecutive dispatches (the last may be shorter), each
 * replayed as one unit (`engine.dispatchRange`), with one row of metrics per dispatch. Calls
 * `onProgress` with the dispatches done after each dispatch or range.
 */
export async function profileDispatches(
  engine: ReplayEngine,
  queue: Queue,
  workload: ProfileWorkload,
  options: { readonly dispatches: number; readonly range: number; readonly onProgress?: (done: number) => void },
): Promise<ProfiledDispatches> {
  const rows: ProfileRow[] = [];
  const ranges: ProfileRange[] = [];
  for (let first = 0; first < options.dispatches; first += options.range) {
    const count = Math.min(options.range, options.dispatches - first);
    const launches = Array.from({ length: count }, (_, offset) => {
      const { kernel, args, launch } = workload.dispatch(first + offset);
      return { kernel, args, ...(launch && { launch }) };
    });
    if (options.range === 1) {
      const result = await engine.dispatch({ queue, ...launches[0]! });
      rows.push(profileRow(first, null, result, result.collected as CollectedMetrics | undefined, 1));
    } else {
      const result = await engine.dispatchRange({ queue, dispatches: launches });
      const index = ranges.length;
      ranges.push({
        first,
        dispatches: count,
        replayed: result.replayed,
        passes: result.passes,
        wallMs: result.timings.wallMs,
        wallMsPerDispatch: result.timings.wallMs / count,
        bytesCopied: result.bytesCopied,
        tier: result.tier,
        bytes: result.bytes,
        ...(result.declineReason && { declineReason: result.declineReason }),
        ...(result.failure && { error: `${result.failure.phase}: ${result.failure.error.message}` }),
      });
      result.dispatches.forEach((dispatch, offset) => rows.push(profileRow(first + offset, index, result, dispatch.collected as CollectedMetrics | undefined, count)));
    }
    options.onProgress?.(first + count);
  }
  return { rows, ranges };
}

/** The row of one dispatch (in a range of `share` dispatches, its share of the range's time and bytes). */
export function profileRow(dispatch: number, range: number | null, result: DispatchResult, collected: CollectedMetrics | undefined, share: number): ProfileRow {
  return {
    dispatch,
    range,
    replayed: result.replayed,
    passes: result.passes,
    wallMs: result.timings.wallMs / share,
    bytesCopied: result.bytesCopied / share,
    metrics: collected?.metrics ?? null,
    ...(collected?.error && { error: `${collected.error.code}: ${collected.error.message}` }),
    ...(result.failure && { error: `${result.failure.phase}: ${result.failure.error.message}` }),
    ...(result.declineReason && { declineReason: result.declineReason }),
  };
}
