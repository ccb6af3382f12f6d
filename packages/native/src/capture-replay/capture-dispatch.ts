import type { CaptureMemoryKind } from '../capture/capture-folder-types.js';
import type { CopySegment, KernelArguments, KernelDescriptor, KernelLaunch, MemoryRange } from '../runtime/runtime-types.js';
import type { ExpectedPageHashes, PostLaunchCheck } from './post-launch-hashes.js';

/** A captured range where the replay placed it (its captured base, or where the driver put a module global). */
export interface CaptureReplayRange {
  readonly address: number;
  readonly bytes: number;
  readonly kind: CaptureMemoryKind;
  /** A module global's name; empty for the others. */
  readonly label: string;
}

/** One captured launch made ready to run: its memory is as it was before the program's launch. */
export interface CaptureDispatch {
  /** The launch's sequence in the capture. */
  readonly sequence: number;
  /** The kernel's symbol name (mangled for C++). */
  readonly function: string;
  /**
   * The loaded kernel: one `bytes` parameter `parameters` (the captured parameter buffer, declared
   * `indirect`, since what its pointers reach may hold further pointers), or none for a kernel
   * without parameters.
   */
  readonly kernel: KernelDescriptor;
  /** `{ parameters }`, the raw parameter buffer (empty for a kernel without parameters). */
  readonly args: KernelArguments;
  /** How many of the capture's memory regions are not at their captured addresses (see CaptureAddressPolicy). */
  readonly relocatedRegions: number;
  /** Grid, block, dynamic shared memory and cluster dimensions of the captured launch. */
  readonly launch: KernelLaunch;
  readonly memory: readonly CaptureReplayRange[];
  /** What the program's launch left in memory: compare with checkPostLaunchHashes after one run. */
  readonly expectedPageHashes: ExpectedPageHashes;
  /** Pages written to make the memory as it was before the launch (the others already were). */
  readonly pagesWritten: number;
  readonly bytesWritten: number;
  /** What of the captured launch a replay does not reproduce (e.g. launch attributes other than cluster dimensions). */
  readonly notes: readonly string[];
}

/** One launch of a range made ready to run (see CaptureReplay.prepareRange). */
export interface CaptureRangeLaunch {
  /**
   * Its dispatch. Memory is as it was before the program's launch only once the launches before
   * it in the range and the copies in `before` have run; `pagesWritten` and `bytesWritten` of the
   * first launch count what prepareRange wrote for the whole range, the others' are 0.
   */
  readonly dispatch: CaptureDispatch;
  /**
   * Copies from the range's staging into the pages whose content before this launch differs from
   * what the launch before it left (the work the program did between them): enqueue them right
   * before the dispatch, in every run of the range (a RangeDispatch's `before`). Empty for the first.
   */
  readonly before: readonly CopySegment[];
  /** Pages and bytes `before` writes. */
  readonly pagesBefore: number;
  readonly bytesBefore: number;
}

/** A range of captured launches made ready to run as one unit (see CaptureReplay.prepareRange). */
export interface CaptureRange {
  readonly launches: readonly CaptureRangeLaunch[];
  /**
   * The device memory the replay owns holding the bytes every launch's `before` copies read (null
   * when no launch has copies): the range only reads it, so keep it out of snapshots (a tracker's
   * `excluded` tag). It stays valid until the next prepareRange of another range, or dispose.
   */
  readonly staging: MemoryRange | null;
  /** Pages and bytes written to make memory as it was before the first launch (and the pages of ranges only a later launch reaches). */
  readonly pagesWritten: number;
  readonly bytesWritten: number;
  /** Bytes of the staging the copies read (the sum of `bytesBefore`). */
  readonly bytesStaged: number;
  /** E.g. that the launches do not follow one another in a captured sequence. */
  readonly notes: readonly string[];
}

/** What CaptureReplay.checkRange found: the memory after each launch of a range against the program's. */
export interface CaptureRangeCheck {
  /** One per launch, in order, each from the program's memory before it. */
  readonly launches: readonly PostLaunchCheck[];
  /** Pages a launch left different from the program's, written back (from the later launch's pages before) before a later launch that reaches them. */
  readonly pagesRepaired: number;
}
