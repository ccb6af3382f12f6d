import type { CaptureMemoryKind } from '../capture/capture-folder-types.js';
import type { Queue } from '../runtime/runtime-objects.js';
import { argumentError, requireObject } from '../errors/validate.js';

/** The page hashes one range must have after a launch, where the replay placed it. */
export interface ExpectedRangeHashes {
  readonly address: number;
  readonly bytes: number;
  readonly kind: CaptureMemoryKind;
  /** A module global's name; empty for the others. */
  readonly label: string;
  /** One page hash (see pageHash) per page of `pageBytes`, the last page possibly short. */
  readonly hashes: readonly bigint[];
}

/** What a launch must leave in memory: what the captured program's launch left. */
export interface ExpectedPageHashes {
  readonly pageBytes: number;
  readonly ranges: readonly ExpectedRangeHashes[];
}

/** A range whose memory after the launch differs from the program's. */
export interface PostLaunchMismatch {
  readonly address: number;
  readonly bytes: number;
  readonly kind: CaptureMemoryKind;
  readonly label: string;
  /** The indices of the pages that differ, from 0 at the range's start. */
  readonly pages: readonly number[];
}

/** What {@link checkPostLaunchHashes} found. */
export interface PostLaunchCheck {
  /** True when every page equals the program's after its launch. */
  readonly reproduced: boolean;
  readonly pagesCompared: number;
  readonly pagesMismatched: number;
  /** The ranges with a page that differs, in the order of the expectation. */
  readonly mismatches: readonly PostLaunchMismatch[];
}

/**
 * Hashes the memory of `expected` on `queue` (after the work enqueued on it, so enqueue the launch on
 * the same queue or synchronize first) and compares each page with the hash the captured program's
 * memory had after the launch. A replay reproduces the program's launch when every page matches.
 * @throws {ArgumentError} (as a rejection) when `expected` is malformed or its ranges are not live memory of the queue's agent.
 * @throws {DriverError} (as a rejection) when the queue's work failed.
 */
export async function checkPostLaunchHashes(queue: Queue, expected: ExpectedPageHashes): Promise<PostLaunchCheck> {
  const { pageBytes, ranges } = requireObject('capture', 'expected', expected) as unknown as ExpectedPageHashes;
  if (!Array.isArray(ranges)) {
    throw argumentError('capture', 'expected.ranges', 'expected.ranges is not an array', 'Pass the expectedPageHashes of a CaptureDispatch');
  }
  for (const [position, range] of ranges.entries()) {
    const pages = Math.ceil(range.bytes / pageBytes);
    if (!Array.isArray(range.hashes) || range.hashes.length !== pages) {
      throw argumentError('capture', `expected.ranges[${position}].hashes`, `expected.ranges[${position}] lists ${range.hashes?.length} hashes for ${pages} pages`, 'Pass the expectedPageHashes of a CaptureDispatch');
    }
  }
  const live = ranges.filter((range) => range.bytes > 0);
  const hashes = live.length === 0 ? new BigUint64Array(0) : await queue.hashPages(live.map(({ address, bytes }) => ({ address, bytes })), pageBytes);
  const mismatches: PostLaunchMismatch[] = [];
  let next = 0;
  for (const range of live) {
    const pages: number[] = [];
    range.hashes.forEach((hash: bigint, page: number) => {
      if (hashes[next + page] !== hash) pages.push(page);
    });
    next += range.hashes.length;
    if (pages.length > 0) mismatches.push(Object.freeze({ address: range.address, bytes: range.bytes, kind: range.kind, label: range.label, pages: Object.freeze(pages) }));
  }
  const pagesMismatched = mismatches.reduce((sum, mismatch) => sum + mismatch.pages.length, 0);
  return Object.freeze({ reproduced: pagesMismatched === 0, pagesCompared: next, pagesMismatched, mismatches: Object.freeze(mismatches) });
}
