import type { CapturePage } from './capture-pages.js';

/** One captured range of a launch where the replay placed it, with its pages and their hashes before and after the launch. */
export interface PlacedCaptureRange {
  readonly address: number;
  readonly bytes: number;
  readonly pageBytes: number;
  /** Its pages, each with the blob it holds before the launch. */
  readonly pages: readonly CapturePage[];
  /** The page hash of each page before the launch. */
  readonly hashesBefore: readonly bigint[];
  /** The page hash of each page after the launch. */
  readonly hashesAfter: readonly bigint[];
}

/** Where the pages of a range of launches come from. */
export interface CaptureRangePagePlan {
  /** Written before the range: the first launch's pages, and those of ranges no launch before them reaches. */
  readonly initial: readonly CapturePage[];
  /** Per launch: the pages to copy right before it (none for the first). */
  readonly before: readonly (readonly CapturePage[])[];
}

interface KnownRange {
  readonly address: number;
  readonly bytes: number;
  readonly hashes: readonly bigint[];
}

const keyOf = (range: { readonly address: number; readonly bytes: number; readonly pageBytes: number }) => `${range.address}+${range.bytes}/${range.pageBytes}`;
const overlaps = (left: { readonly address: number; readonly bytes: number }, right: { readonly address: number; readonly bytes: number }) =>
  left.address < right.address + right.bytes && right.address < left.address + left.bytes;

/**
 * Plans a range of launches, each given by its placed ranges: what memory holds after a launch is
 * known by page hash (the program's hashes after it: a replay that reproduces the launch leaves
 * the same); before the next launch, a page whose hash before differs from what is known is copied.
 * A range no earlier launch of the range reaches (nor anything overlapping it) is written before
 * the range instead, since nothing in the range writes it before its launch. A range that overlaps
 * what an earlier launch reached, but with other bounds (memory freed and allocated again between
 * the launches), is copied whole, and what was known of what it overlaps is forgotten.
 */
export function planRangePages(launches: readonly (readonly PlacedCaptureRange[])[]): CaptureRangePagePlan {
  const known = new Map<string, KnownRange>();
  /** Every range an earlier launch reached (known or forgotten). */
  const reached = new Map<string, { readonly address: number; readonly bytes: number }>();
  const initial: CapturePage[] = [];
  const before: CapturePage[][] = [];
  launches.forEach((ranges, index) => {
    const copies: CapturePage[] = [];
    for (const range of ranges) {
      if (range.bytes === 0) continue;
      const prior = known.get(keyOf(range));
      if (index === 0 || (prior === undefined && ![...reached.values()].some((earlier) => overlaps(earlier, range)))) initial.push(...range.pages);
      else if (prior === undefined) copies.push(...range.pages);
      else range.pages.forEach((page, position) => prior.hashes[position] !== range.hashesBefore[position] && copies.push(page));
    }
    before.push(copies);
    for (const range of ranges) {
      if (range.bytes === 0) continue;
      const key = keyOf(range);
      for (const [other, earlier] of known) if (other !== key && overlaps(earlier, range)) known.delete(other);
      known.set(key, { address: range.address, bytes: range.bytes, hashes: range.hashesAfter });
      reached.set(key, { address: range.address, bytes: range.bytes });
    }
  });
  return { initial, before };
}
