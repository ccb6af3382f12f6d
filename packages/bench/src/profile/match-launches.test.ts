import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchLaunches } from './match-launches.js';
import type { ProfileDocumentRow } from './profile-document.js';

const row = (dispatch: number, kernel: string, grid?: [number, number, number]): ProfileDocumentRow => ({
  dispatch,
  kernel,
  ...(grid && { grid, block: [128, 1, 1] as const }),
  range: null,
  replayed: true,
  passes: 1,
  wallMs: 1,
  bytesCopied: 0,
  metrics: {},
});

/** A profile's rows: kernels from a small set (so that names repeat), each with one of two grids. */
const rows = fc.array(fc.tuple(fc.constantFrom('gemm', 'add', 'softmax', 'copy'), fc.constantFrom(1, 2)), { maxLength: 30 }).map((launches) => launches.map(([kernel, x], dispatch) => row(dispatch, kernel, [x, 1, 1])));

describe('matchLaunches', () => {
  it('matches the i-th launch of a name with the i-th launch of that name, and lists the rest', () => {
    const a = [row(0, 'gemm'), row(1, 'add'), row(2, 'gemm'), row(3, 'gemm')];
    const b = [row(10, 'add'), row(11, 'gemm'), row(12, 'add'), row(13, 'gemm'), row(14, 'softmax')];
    const matched = matchLaunches(a, b, 'name');
    expect(matched.pairs.map((pair) => [pair.a.dispatch, pair.b.dispatch])).toEqual([[0, 11], [1, 10], [2, 13]]);
    expect(matched.onlyInA.map((launch) => [launch.key, launch.occurrence, launch.row.dispatch])).toEqual([['gemm', 2, 3]]);
    expect(matched.onlyInB.map((launch) => [launch.key, launch.occurrence, launch.row.dispatch])).toEqual([['add', 1, 12], ['softmax', 0, 14]]);
  });

  it('with grid, matches only launches of the same grid and block', () => {
    const a = [row(0, 'gemm', [4, 1, 1]), row(1, 'gemm', [8, 1, 1])];
    const b = [row(0, 'gemm', [8, 1, 1]), row(1, 'gemm', [4, 1, 1]), row(2, 'gemm', [4, 1, 1])];
    const byName = matchLaunches(a, b, 'name');
    expect(byName.pairs.map((pair) => [pair.a.dispatch, pair.b.dispatch])).toEqual([[0, 0], [1, 1]]);
    const byGrid = matchLaunches(a, b, 'grid');
    expect(byGrid.pairs.map((pair) => [pair.key, pair.a.dispatch, pair.b.dispatch])).toEqual([
      ['gemm grid 4x1x1 block 128x1x1', 0, 1],
      ['gemm grid 8x1x1 block 128x1x1', 1, 0],
    ]);
    expect(byGrid.onlyInB.map((launch) => launch.row.dispatch)).toEqual([2]);
    expect(() => matchLaunches([row(0, 'gemm')], b, 'grid')).toThrow(/launch 0 of gemm has no launch shape/);
  });

  it('matches rows without a kernel name (generated workloads) by order', () => {
    const unnamed = (dispatch: number): ProfileDocumentRow => {
      const { kernel: _, ...rest } = row(dispatch, 'x');
      return rest;
    };
    const matched = matchLaunches([unnamed(0), unnamed(1)], [unnamed(0)], 'name');
    expect(matched.pairs.map((pair) => pair.key)).toEqual(['(unnamed)']);
    expect(matched.onlyInA.map((launch) => launch.row.dispatch)).toEqual([1]);
  });

  it('puts every launch in exactly one pair or one list, pairs sharing their key and their place among it', () => {
    fc.assert(
      fc.property(rows, rows, fc.constantFrom('name' as const, 'grid' as const), (a, b, match) => {
        const matched = matchLaunches(a, b, match);
        const key = (launch: ProfileDocumentRow) => (match === 'name' ? launch.kernel! : `${launch.kernel!} grid ${launch.grid!.join('x')} block ${launch.block!.join('x')}`);
        const place = (rowsOf: readonly ProfileDocumentRow[], launch: ProfileDocumentRow) => rowsOf.filter((other) => key(other) === key(launch) && other.dispatch < launch.dispatch).length;
        expect([...matched.pairs.map((pair) => pair.a), ...matched.onlyInA.map((launch) => launch.row)].map((launch) => launch.dispatch).sort((x, y) => x - y)).toEqual(a.map((launch) => launch.dispatch));
        expect([...matched.pairs.map((pair) => pair.b), ...matched.onlyInB.map((launch) => launch.row)].map((launch) => launch.dispatch).sort((x, y) => x - y)).toEqual(b.map((launch) => launch.dispatch));
        for (const pair of matched.pairs) {
          expect(key(pair.a)).toBe(key(pair.b));
          expect(place(a, pair.a)).toBe(place(b, pair.b));
        }
        // A launch is left over only when the other profile has fewer launches of its key.
        for (const launch of matched.onlyInA) expect(b.filter((other) => key(other) === launch.key).length).toBeLessThanOrEqual(launch.occurrence);
        // Symmetric: swapping the profiles swaps the lists.
        const swapped = matchLaunches(b, a, match);
        expect(swapped.pairs.length).toBe(matched.pairs.length);
        expect(swapped.onlyInA.map((launch) => launch.row.dispatch).sort()).toEqual(matched.onlyInB.map((launch) => launch.row.dispatch).sort());
      }),
    );
  });

  it('matches every launch of a profile with itself', () => {
    fc.assert(
      fc.property(rows, (a) => {
        const matched = matchLaunches(a, a, 'grid');
        expect(matched.pairs.every((pair) => pair.a === pair.b)).toBe(true);
        expect(matched.onlyInA.length + matched.onlyInB.length).toBe(0);
      }),
    );
  });
});
