import type { DispatchTimings, RangeDispatchResult, RangeResult } from '@kreplay/replay';
import type { ByteAccount } from '@kreplay/snapshot';

/** One range of a replay experiment run with `range`: what it moved, how it ran, and each dispatch's values. */
export interface ReplayRangeSummary {
  readonly agentId: number;
  /** The workload index of the range's first dispatch. */
  readonly firstDispatch: number;
  readonly replayed: boolean;
  readonly declineReason?: string;
  readonly passes: number;
  readonly bytes: ByteAccount;
  readonly bytesCopied: number;
  /** The range's phases (capture, each whole pass of the sequence, each restore) and wall time. */
  readonly timings: DispatchTimings;
  readonly verified: boolean | null;
  /** Per dispatch of the range, in order: its kernel and what the pass provider collected for it. */
  readonly dispatches: readonly RangeDispatchResult[];
}

/** The summary of one range's result. */
export function summarizeRange(agentId: number, firstDispatch: number, result: RangeResult): ReplayRangeSummary {
  return {
    agentId,
    firstDispatch,
    replayed: result.replayed,
    ...(result.declineReason === undefined ? {} : { declineReason: result.declineReason }),
    passes: result.passes,
    bytes: result.bytes,
    bytesCopied: result.bytesCopied,
    timings: result.timings,
    verified: result.verified,
    dispatches: result.dispatches,
  };
}
