import type { CaptureMemoryKind } from '../capture-folder-types.js';
import type { KernelArguments, KernelDescriptor, KernelLaunch } from '../runtime-types.js';
import type { ExpectedPageHashes } from './post-launch-hashes.js';

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
