import { describe, expect, it } from 'vitest';
import { pagesOf } from './capture-pages.js';
import { planRangePages, type PlacedCaptureRange } from './capture-range-plan.js';

const pageBytes = 100;

/** A range of `hashes.before.length` pages at `address`, the blob of page i named `<tag>i`. */
function range(address: number, tag: string, before: readonly number[], after: readonly number[], bytes = before.length * pageBytes): PlacedCaptureRange {
  return {
    address,
    bytes,
    pageBytes,
    pages: pagesOf(address, bytes, pageBytes, before.map((_, page) => `${tag}${page}`)),
    hashesBefore: before.map(BigInt),
    hashesAfter: after.map(BigInt),
  };
}

const addresses = (pages: readonly { readonly address: number }[]) => pages.map((page) => page.address);

describe('planRangePages', () => {
  it('writes the first launch before the range, then copies before each launch only the pages that differ from what the one before left', () => {
    const plan = planRangePages([
      [range(1000, 'a', [1, 2, 3], [1, 5, 3]), range(5000, 'x', [7, 7], [7, 7])],
      // y as launch 0 left it but page 2 (work between the launches wrote it); x changed in page 0.
      [range(1000, 'b', [1, 5, 9], [4, 5, 9]), range(5000, 'y', [8, 7], [8, 7])],
      // Nothing between: nothing to copy.
      [range(1000, 'c', [4, 5, 9], [4, 5, 9]), range(5000, 'z', [8, 7], [8, 7])],
    ]);
    expect(addresses(plan.initial)).toEqual([1000, 1100, 1200, 5000, 5100]);
    expect(plan.before.map((pages) => pages.map((page) => page.blob))).toEqual([[], ['b2', 'y0'], []]);
  });

  it('writes a range no earlier launch reaches before the range, and copies one an earlier launch reached but not the one before', () => {
    const plan = planRangePages([
      [range(1000, 'a', [1], [2])],
      [range(1000, 'b', [2], [2]), range(9000, 'n', [6, 6], [6, 6])],
      [range(9000, 'o', [6, 6], [6, 6])],
      // The launch before did not reach 1000: what launch 1 left there is what is known.
      [range(1000, 'd', [2], [2]), range(9000, 'p', [6, 3], [6, 3])],
    ]);
    expect(plan.initial.map((page) => page.blob)).toEqual(['a0', 'n0', 'n1']);
    expect(plan.before.map((pages) => pages.map((page) => page.blob))).toEqual([[], [], [], ['p1']]);
  });

  it('copies a range whole when it overlaps what an earlier launch reached with other bounds, and forgets what it overlaps', () => {
    const plan = planRangePages([
      [range(1000, 'a', [1, 1, 1], [1, 1, 1])],
      // Freed and allocated again, smaller, between the launches.
      [range(1000, 'b', [1, 1], [2, 2], 150)],
      // As launch 0 reached it again: its hashes after launch 0 no longer say what memory holds.
      [range(1000, 'c', [1, 1, 1], [1, 1, 1])],
    ]);
    expect(plan.initial.map((page) => page.blob)).toEqual(['a0', 'a1', 'a2']);
    expect(plan.before.map((pages) => pages.map((page) => page.blob))).toEqual([[], ['b0', 'b1'], ['c0', 'c1', 'c2']]);
  });
});
