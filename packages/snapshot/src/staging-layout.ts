import type { CopySegment, MemoryRange } from '@kreplay/native';

const alignment = 256;

/** Where each range of application memory sits inside one staging region. */
export interface StagingLayout {
  /** Bytes of staging the ranges need, alignment included. */
  readonly bytes: number;
  /** Offset of each range from the staging region's start, in the order of the ranges. */
  readonly offsets: readonly number[];
}

/** Lays `ranges` out one after the other, each starting on a 256-byte boundary. */
export function layOutRanges(ranges: readonly MemoryRange[]): StagingLayout {
  const offsets: number[] = [];
  let cursor = 0;
  for (const range of ranges) {
    offsets.push(cursor);
    cursor += Math.ceil(range.bytes / alignment) * alignment;
  }
  return { bytes: cursor, offsets };
}

/** Copy segments from application memory into staging at `base`. */
export function segmentsToStaging(ranges: readonly MemoryRange[], layout: StagingLayout, base: number): CopySegment[] {
  return ranges.map((range, index) => ({
    source: range.address,
    destination: base + layout.offsets[index]!,
    bytes: range.bytes,
  }));
}

/** Copy segments from staging at `base` back into application memory. */
export function segmentsFromStaging(ranges: readonly MemoryRange[], layout: StagingLayout, base: number): CopySegment[] {
  return ranges.map((range, index) => ({
    source: base + layout.offsets[index]!,
    destination: range.address,
    bytes: range.bytes,
  }));
}

/** The total bytes of some ranges. */
export function totalBytes(ranges: readonly MemoryRange[]): number {
  return ranges.reduce((sum, range) => sum + range.bytes, 0);
}
