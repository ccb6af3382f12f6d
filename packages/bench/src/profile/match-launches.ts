import { kernelNameOf } from './kernel-summary.js';
import type { LaunchDimensions, ProfileDocumentRow } from './profile-document.js';

/**
 * How launches of two profiles are matched, after ncu's `--app-replay-match`: `name`, the i-th
 * launch of a kernel name in one profile with the i-th launch of that name in the other; `grid`,
 * the same within launches that also share their grid and block dimensions. (ncu's `all` also
 * compares contexts and streams, which profiles do not record.)
 */
export type LaunchMatch = 'name' | 'grid';

/** Every {@link LaunchMatch}, for option choices. */
export const launchMatches: readonly LaunchMatch[] = ['name', 'grid'];

/** Two launches matched, with the key they share. */
export interface LaunchPair<Row> {
  readonly key: string;
  readonly a: Row;
  readonly b: Row;
}

/** A launch of one profile that matched none of the other. */
export interface UnmatchedLaunch<Row> {
  readonly key: string;
  /** Its place among the launches of its key, from 0: the i of "the i-th launch of gemm". */
  readonly occurrence: number;
  readonly row: Row;
}

/** What {@link matchLaunches} found. */
export interface MatchedLaunches<Row> {
  /** In the order of the first profile's launches. */
  readonly pairs: readonly LaunchPair<Row>[];
  readonly onlyInA: readonly UnmatchedLaunch<Row>[];
  readonly onlyInB: readonly UnmatchedLaunch<Row>[];
}

const dimensions = (shape: LaunchDimensions) => shape.join('x');

/**
 * The key a launch is matched by: its kernel name, and with `grid` its grid and block
 * (`name grid 64x1x1 block 256x1x1`).
 * @throws Error with `grid` for a row without a launch shape (check {@link rowsWithoutShape} first).
 */
export function launchKey(row: ProfileDocumentRow, match: LaunchMatch): string {
  const name = kernelNameOf(row);
  if (match === 'name') return name;
  if (row.grid === undefined || row.block === undefined) throw new Error(`[bench] [compare] launch ${row.dispatch} of ${name} has no launch shape to match by grid`);
  return `${name} grid ${dimensions(row.grid)} block ${dimensions(row.block)}`;
}

/** How many rows lack a grid or block: `grid` matching needs none to. */
export function rowsWithoutShape(rows: readonly ProfileDocumentRow[]): number {
  return rows.filter((row) => row.grid === undefined || row.block === undefined).length;
}

/**
 * Matches the launches of two profiles by `match` ({@link LaunchMatch}): within each key, in the
 * order of their `dispatch`, the i-th of one profile with the i-th of the other; the launches past
 * the shorter count are unmatched.
 * @throws Error with `grid` when a row has no launch shape.
 */
export function matchLaunches<Row extends ProfileDocumentRow>(a: readonly Row[], b: readonly Row[], match: LaunchMatch): MatchedLaunches<Row> {
  const byKey = (rows: readonly Row[]) => {
    const groups = new Map<string, Row[]>();
    for (const row of [...rows].sort((x, y) => x.dispatch - y.dispatch)) {
      const key = launchKey(row, match);
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    return groups;
  };
  const inA = byKey(a);
  const inB = byKey(b);
  const pairs: LaunchPair<Row>[] = [];
  const onlyInA: UnmatchedLaunch<Row>[] = [];
  const onlyInB: UnmatchedLaunch<Row>[] = [];
  for (const [key, rowsA] of inA) {
    const rowsB = inB.get(key) ?? [];
    rowsA.forEach((row, occurrence) => {
      const other = rowsB[occurrence];
      if (other === undefined) onlyInA.push({ key, occurrence, row });
      else pairs.push({ key, a: row, b: other });
    });
    rowsB.slice(rowsA.length).forEach((row, index) => onlyInB.push({ key, occurrence: rowsA.length + index, row }));
  }
  for (const [key, rowsB] of inB) if (!inA.has(key)) rowsB.forEach((row, occurrence) => onlyInB.push({ key, occurrence, row }));
  pairs.sort((x, y) => x.a.dispatch - y.a.dispatch);
  return { pairs, onlyInA, onlyInB };
}
