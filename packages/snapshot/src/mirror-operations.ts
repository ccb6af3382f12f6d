import type { ConditionalCopyOptions, CopySegment, PageListCopyOptions } from '@kreplay/native';
import type { MirrorLayout } from './mirror-layout.js';

/**
 * The queue operations of one mirror, built once when the mirror is laid out: every address they
 * name is fixed for the mirror's life. A window enqueues them as they are, so the few microseconds
 * of building their option objects stay off the path between two windows.
 */
export interface MirrorOperations {
  /** Where the hash of each mirror page is stored. */
  readonly storedHashesAddress: number;
  /** Copies the pages the last window learned into the mirror and stores their hashes (a capture from known writers). */
  readonly captureKnownWriters: PageListCopyOptions;
  /** Copies the pages whose hash changed into the mirror, storing their hashes and recording them (a capture). */
  readonly captureChangedPages: ConditionalCopyOptions;
  /** Restores the pages that differ from the mirror, recording them as learned (the restore before pass 2). */
  readonly restoreLearning: ConditionalCopyOptions;
  /** Restores the learned pages again, without hashing (later restores). */
  readonly restoreLearned: PageListCopyOptions;
  /** Copies the control block (page lists and counts) to the readback buffer. */
  readonly readControlBlock: readonly CopySegment[];
}

/** The operations of a mirror laid out as `layout` at `address`, with its copy segments and readback buffer. */
export function mirrorOperations(
  layout: MirrorLayout,
  address: number,
  toMirror: readonly CopySegment[],
  fromMirror: readonly CopySegment[],
  readbackAddress: number,
): MirrorOperations {
  const { pageBytes } = layout;
  const storedHashesAddress = address + layout.hashesOffset;
  const captureList = { pageListAddress: address + layout.captureListOffset, pageCountAddress: address + layout.countsOffset };
  const learnedList = { pageListAddress: address + layout.learnedListOffset, pageCountAddress: address + layout.countsOffset + 4 };
  return Object.freeze({
    storedHashesAddress,
    captureKnownWriters: Object.freeze({ segments: toMirror, pageBytes, ...learnedList, storedHashesAddress }),
    captureChangedPages: Object.freeze({ segments: toMirror, pageBytes, hashedSide: 'source', storedHashesAddress, updateStoredHashes: true, ...captureList }),
    restoreLearning: Object.freeze({ segments: fromMirror, pageBytes, hashedSide: 'destination', storedHashesAddress, updateStoredHashes: false, ...learnedList }),
    restoreLearned: Object.freeze({ segments: fromMirror, pageBytes, ...learnedList }),
    readControlBlock: Object.freeze([Object.freeze({ source: captureList.pageListAddress, destination: readbackAddress, bytes: layout.controlBytes })]),
  });
}
