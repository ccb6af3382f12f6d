import { describe, expect, it } from 'vitest';
import { contiguousRuns, pagesOf } from './capture-pages.js';

describe('capture pages', () => {
  it('never joins pages of two ranges into one write, even when one ends where the next begins', () => {
    // Two allocations side by side, as cuMemAlloc places a relocated capture's regions: one write
    // over both would run past the end of the first.
    const first = pagesOf(0x100000, 3 * 65536, 65536, ['a', 'b', 'c']);
    const second = pagesOf(0x100000 + 3 * 65536, 65536 + 15, 65536, ['d', 'e']);
    const runs = contiguousRuns([...second, ...first], 64 * 2 ** 20);
    expect(runs.map((run) => run.map((page) => page.blob))).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    expect(runs[1]!.at(-1)).toMatchObject({ bytes: 15, range: 0x100000 + 3 * 65536 });
  });

  it('splits a range into runs of at most the limit, and at gaps', () => {
    const pages = pagesOf(0, 4 * 4096, 4096, ['a', 'b', 'c', 'd']);
    expect(contiguousRuns(pages, 2 * 4096).map((run) => run.length)).toEqual([2, 2]);
    expect(contiguousRuns([pages[0]!, pages[2]!, pages[3]!], 1 << 20).map((run) => run.length)).toEqual([1, 2]);
  });
});
