import type { ProfileDocumentRange, ProfileDocumentRow } from '@kreplay/bench';
import type { CaptureGraphNode, KernelDescriptor, Queue } from '@kreplay/native';
import type { DispatchResult, ReplayEngine } from '@kreplay/replay';
import type { ByteAccount, StagingTier } from '@kreplay/snapshot';
import { dispatchLaunch, type ProfileLaunch } from './profile-launch.js';
import type { ProfileWorkload } from './profile-workload.js';

/** What one dispatch's pass provider collected, as `kreplay profile` reads it. */
export interface CollectedMetrics {
  readonly metrics: Readonly<Record<string, number>> | null;
  readonly error?: { readonly code: string; readonly message: string };
}

/** One dispatch's row of `kreplay profile`: a profile document's row (`@kreplay/bench`), its metrics numbers as CUPTI gave them. */
export interface ProfileRow extends ProfileDocumentRow {
  /** The kernel (its symbol) and what the launch asks for beyond its shape, where known: what ncu prints beside a result, and its launch statistics. */
  readonly launch?: ProfileLaunch;
  readonly metrics: Readonly<Record<string, number>> | null;
  /** `capture:`: where the launch sat in a graph launch, when it was captured as a kernel node of one. */
  readonly graph?: CaptureGraphNode;
  readonly sampleMetrics?: readonly (Readonly<Record<string, number>> | null)[];
}

/**
 * One range of `kreplay profile --range K`: K consecutive dispatches replayed as one unit (for
 * `capture:`, consecutive launches of a captured sequence).
 */
export interface ProfileRange extends ProfileDocumentRange {
  /** `capture:`: the sequences of its launches, in order. */
  readonly launches?: readonly number[];
  /** `wallMs` per dispatch of the range. */
  readonly wallMsPerDispatch: number;
  /** `capture:`: bytes the copies before its launches (the program's work between them) write in one run of the range. */
  readonly bytesBefore?: number;
  /** `capture:`: bytes written to make memory as before its first launch (of all samples). */
  readonly bytesPrepared?: number;
  /** Where the range's snapshot was staged (null when it was not replayed). */
  readonly tier: StagingTier | null;
  /** The range's bytes by direction, hashed and staged. */
  readonly bytes: ByteAccount;
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
 * `onProgress` with the dispatches done after each dispatch or range. `registersOf` gives a
 * kernel's registers per thread as the driver loaded it (none by default).
 */
export async function profileDispatches(
  engine: ReplayEngine,
  queue: Queue,
  workload: ProfileWorkload,
  options: {
    readonly dispatches: number;
    readonly range: number;
    readonly onProgress?: (done: number) => void;
    readonly registersOf?: (kernel: KernelDescriptor) => number | null;
  },
): Promise<ProfiledDispatches> {
  const registersOf = options.registersOf ?? (() => null);
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
      rows.push({ ...profileRow(first, null, result, result.collected as CollectedMetrics | undefined, 1), ...dispatchLaunch(launches[0]!.kernel, launches[0]!.launch, registersOf(launches[0]!.kernel)) });
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
      result.dispatches.forEach((dispatch, offset) =>
        rows.push({ ...profileRow(first + offset, index, result, dispatch.collected as CollectedMetrics | undefined, count), ...dispatchLaunch(launches[offset]!.kernel, launches[offset]!.launch, registersOf(launches[offset]!.kernel)) }),
      );
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
