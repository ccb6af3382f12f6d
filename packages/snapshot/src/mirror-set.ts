import type { CopySegment, HostBuffer, MemoryRange } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import type { StagingLease } from './staging-types.js';
import type { CandidateRange } from './candidate-ranges.js';
import type { MirrorLayout } from './mirror-layout.js';
import { mirrorOperations, type MirrorOperations } from './mirror-operations.js';
import { segmentsFromStaging, segmentsToStaging } from './staging-layout.js';

/**
 * A retained mirror of a candidate set: a staged copy of its bytes, the hash of every page of the
 * copy, and the page lists of the last dispatch. Invariant: each stored hash is the hash of its
 * mirror page, or a value no page is expected to hash to (fresh memory), so a conditional copy
 * that compares memory with the stored hashes always leaves mirror == memory.
 */
export class MirrorSet {
  /** True until the first capture has copied everything. */
  fresh = true;
  /** True while a replay window holds it. */
  inUse = false;
  /**
   * What the last completed window knows about memory since: `runtime.workIssued` right after its
   * last operation, and the bytes per range of the pages its first pass wrote (its learned list).
   * While workIssued has not moved, memory differs from the mirror only on those pages. Undefined
   * when nothing is known (fresh, or the last window failed or learned nothing).
   */
  known: { readonly workIssued: number; readonly learnedBytes: readonly number[] } | undefined;
  /** Whether only queue work can write the ranges (device memory: the host cannot write it behind the runtime's back). */
  readonly writtenOnlyByQueues: boolean;
  /** Deeply frozen, like its operations: a queue checks frozen copies once. */
  readonly toMirror: readonly CopySegment[];
  readonly fromMirror: readonly CopySegment[];
  readonly mirrorData: MemoryRange[];
  /** For each global page index, the index of the range it belongs to. */
  readonly pageRange: Uint32Array;
  /** For each global page index, its bytes (the last page of a range may be short). */
  readonly pageSizes: Float64Array;
  /** What a window enqueues on it. */
  readonly operations: MirrorOperations;
  #words: Uint32Array | undefined;

  constructor(
    readonly key: string,
    /** The tracker whose allocations it mirrors (its `allocationIds` are that tracker's). */
    readonly tracker: Tracker,
    readonly ranges: readonly CandidateRange[],
    readonly allocationIds: readonly number[],
    readonly layout: MirrorLayout,
    readonly lease: StagingLease,
    readonly readback: HostBuffer,
  ) {
    this.toMirror = frozenSegments(segmentsToStaging(ranges, layout.data, lease.address));
    this.fromMirror = frozenSegments(segmentsFromStaging(ranges, layout.data, lease.address));
    this.mirrorData = this.toMirror.map((segment) => ({ address: segment.destination, bytes: segment.bytes }));
    this.operations = mirrorOperations(layout, lease.address, this.toMirror, this.fromMirror, readback.address);
    this.writtenOnlyByQueues = ranges.every((range) => range.kind === 'device' || range.kind === 'stream-ordered');
    this.pageRange = new Uint32Array(layout.totalPages);
    this.pageSizes = new Float64Array(layout.totalPages).fill(layout.pageBytes);
    let page = 0;
    layout.pagesPerRange.forEach((pages, rangeIndex) => {
      this.pageRange.fill(rangeIndex, page, page + pages);
      page += pages;
      if (pages > 0) this.pageSizes[page - 1] = ranges[rangeIndex]!.bytes - (pages - 1) * layout.pageBytes;
    });
  }

  /** The pages a conditional copy recorded, read from the readback buffer after the queue completed. */
  recordedPages(which: 'capture' | 'learned'): Uint32Array {
    const { captureListOffset, learnedListOffset, countsOffset, totalPages } = this.layout;
    const words = this.#controlWords();
    const count = Math.min(words[(countsOffset - captureListOffset) / 4 + (which === 'capture' ? 0 : 1)]!, totalPages);
    const listStart = ((which === 'capture' ? captureListOffset : learnedListOffset) - captureListOffset) / 4;
    return words.subarray(listStart, listStart + count);
  }

  /** The readback buffer as 32-bit words (the control block: two page lists, then two counts). */
  #controlWords(): Uint32Array {
    const view = this.readback.view();
    if (this.#words?.buffer !== view.buffer) this.#words = new Uint32Array(view.buffer, view.byteOffset, this.layout.controlBytes / 4);
    return this.#words;
  }

  /** Bytes per range of the given pages (the last page of a range may be short). */
  bytesPerRange(pages: Uint32Array): number[] {
    // A plain array filled in place: in Node 20, Array.from of a typed array measured about 5 us.
    const bytes = new Array<number>(this.ranges.length).fill(0);
    const { pageRange, pageSizes } = this;
    for (let index = 0; index < pages.length; index += 1) {
      const page = pages[index]!;
      bytes[pageRange[page]!]! += pageSizes[page]!;
    }
    return bytes;
  }

  /** Gives the mirror's staging (its bytes, hashes and page lists) back and frees its readback buffer. Idempotent. */
  dispose(): void {
    this.lease.release();
    if (!this.readback.freed) this.readback.free();
  }
}

function frozenSegments(segments: readonly CopySegment[]): readonly CopySegment[] {
  return Object.freeze(segments.map((segment) => Object.freeze(segment)));
}
