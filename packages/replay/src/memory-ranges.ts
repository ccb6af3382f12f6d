import type { MemoryRange } from '@kreplay/native';

/** Ranges a window claims: a list, or every address of every agent (when what is written cannot be bounded). */
export type RangeSet = readonly MemoryRange[] | 'everything';

/** Whether two byte ranges share at least one byte. */
export function rangesOverlap(left: MemoryRange, right: MemoryRange): boolean {
  return left.bytes > 0 && right.bytes > 0 && left.address < right.address + right.bytes && right.address < left.address + left.bytes;
}

/** Whether any range of `left` overlaps any range of `right`; `everything` overlaps any non-empty set. */
export function rangeSetsOverlap(left: RangeSet, right: RangeSet): boolean {
  if (left === 'everything') return right === 'everything' || right.some((range) => range.bytes > 0);
  if (right === 'everything') return left.some((range) => range.bytes > 0);
  return left.some((one) => right.some((other) => rangesOverlap(one, other)));
}

/** A plain `{ address, bytes }` copy of a range (strategies may hand out richer objects). */
export function plainRange(range: MemoryRange): MemoryRange {
  return { address: range.address, bytes: range.bytes };
}
