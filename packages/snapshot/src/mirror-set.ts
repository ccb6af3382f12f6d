import type { HostBuffer } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import type { CandidateRange } from './candidate-ranges.js';
import type { MirrorPart } from './mirror-part.js';

/**
 * A retained mirror of a candidate set, in one part per staging tier (see {@link MirrorPart}).
 * Invariant: each stored hash is the hash of its mirror page, or a value no page is expected to hash
 * to (fresh memory), so a conditional copy that compares memory with the stored hashes always leaves
 * mirror == memory.
 */
export class MirrorSet {
  /** True until the first capture has copied everything. */
  fresh = true;
  /** True while a replay window holds it. */
  inUse = false;
  /**
   * What the last completed window knows about memory since: `runtime.workIssued` right after its
   * last operation, and for each part the bytes per range of the pages its first pass wrote (its
   * learned list). While workIssued has not moved, memory differs from the mirror only on those
   * pages. Undefined when nothing is known (fresh, or the last window failed or learned nothing).
   */
  known: { readonly workIssued: number; readonly learnedBytes: readonly (readonly number[])[] } | undefined;
  /** Whether only queue work can write the ranges (device memory: the host cannot write it behind the runtime's back). */
  readonly writtenOnlyByQueues: boolean;

  constructor(
    readonly key: string,
    /** The tracker whose allocations it mirrors (its `allocationIds` are that tracker's). */
    readonly tracker: Tracker,
    readonly ranges: readonly CandidateRange[],
    readonly allocationIds: readonly number[],
    /** One part per tier, device first; the parts' ranges together are `ranges`. */
    readonly parts: readonly MirrorPart[],
    /** The pinned host buffer every part's control block is read back into. */
    readonly readback: HostBuffer,
  ) {
    this.writtenOnlyByQueues = ranges.every((range) => range.kind === 'device' || range.kind === 'stream-ordered');
  }

  /** Gives the mirror's staging (its bytes, hashes and page lists) back and frees its readback buffer. Idempotent. */
  dispose(): void {
    for (const part of this.parts) part.release();
    if (!this.readback.freed) this.readback.free();
  }
}
