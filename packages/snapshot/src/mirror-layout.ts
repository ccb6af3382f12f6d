import type { CandidateRange } from './candidate-ranges.js';
import { layOutRanges } from './staging-layout.js';
import type { StagingLayout } from './staging-layout.js';

const alignment = 256;
const align = (bytes: number) => Math.ceil(bytes / alignment) * alignment;

/**
 * The layout of one mirror region: the mirrored bytes, then one 64-bit hash per page, two page
 * lists (pages captured, pages learned after pass 1) and two 32-bit counts.
 */
export interface MirrorLayout {
  readonly data: StagingLayout;
  readonly pageBytes: number;
  /** Pages of each range (the last one of a range may be short). */
  readonly pagesPerRange: readonly number[];
  readonly totalPages: number;
  readonly hashesOffset: number;
  readonly captureListOffset: number;
  readonly learnedListOffset: number;
  readonly countsOffset: number;
  /** Bytes of the control block (lists, then counts) read back after each dispatch. */
  readonly controlBytes: number;
  readonly bytes: number;
}

/** Lays out a mirror of `ranges` at `pageBytes`. */
export function layOutMirror(ranges: readonly CandidateRange[], pageBytes: number): MirrorLayout {
  const data = layOutRanges(ranges);
  const pagesPerRange = ranges.map((range) => Math.ceil(range.bytes / pageBytes));
  const totalPages = pagesPerRange.reduce((sum, pages) => sum + pages, 0);
  const hashesOffset = data.bytes;
  const captureListOffset = hashesOffset + align(totalPages * 8);
  const learnedListOffset = captureListOffset + totalPages * 4;
  const countsOffset = learnedListOffset + totalPages * 4;
  const controlBytes = countsOffset + 8 - captureListOffset;
  return {
    data,
    pageBytes,
    pagesPerRange,
    totalPages,
    hashesOffset,
    captureListOffset,
    learnedListOffset,
    countsOffset,
    controlBytes,
    bytes: align(countsOffset + 8),
  };
}
