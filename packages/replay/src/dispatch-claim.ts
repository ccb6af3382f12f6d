import type { MemoryRange } from '@kreplay/native';
import type { Snapshot } from '@kreplay/snapshot';
import type { ArgumentResolution } from '@kreplay/tracker';
import type { Decline } from './decline.js';
import { plainRange, type RangeSet } from './memory-ranges.js';
import type { RangeClaim } from './range-lock.js';

/** Writable ranges by resolution: the tracker's resolutions are frozen, and it hands out the same one while nothing changed. */
const writableByResolution = new WeakMap<ArgumentResolution, RangeSet>();

/**
 * What the dispatch's passes may write: the reached allocations whose access is not `read`, within
 * the reached range; `everything` when the arguments are not bounded or some pointer is unresolved.
 * Derived once per resolution (frozen, like the resolution).
 */
export function writableRanges(resolution: ArgumentResolution): RangeSet {
  const known = writableByResolution.get(resolution);
  if (known !== undefined) return known;
  const writes: RangeSet =
    !resolution.bounded || resolution.unresolved.length > 0
      ? 'everything'
      : Object.freeze(resolution.reached.filter((reached) => reached.access !== 'read').map((reached) => Object.freeze(plainRange(reached.range))));
  if (Object.isFrozen(resolution)) writableByResolution.set(resolution, writes);
  return writes;
}

/**
 * The lock claim of a window: what it writes, and what it reads as a whole: its snapshot's ranges
 * (captured and restored) and, with verification on, every range it hashes (so no window on another
 * queue writes them meanwhile, which would read as a mismatch).
 */
export function dispatchClaim(
  queueId: number,
  resolution: ArgumentResolution,
  decline: Decline | undefined,
  snapshot: Snapshot | undefined,
  hashed: readonly MemoryRange[],
): RangeClaim {
  const unbounded = decline?.code === 'graph' || decline?.code === 'cross-device';
  return {
    queueId,
    writes: unbounded ? 'everything' : writableRanges(resolution),
    captures: [...(snapshot ? snapshot.ranges.map(plainRange) : []), ...hashed],
  };
}

/** The ranges a failed single run may have left changed: its writable ranges when bounded. */
export function rangesMayHaveWritten(writes: RangeSet, allocations: readonly MemoryRange[]): readonly MemoryRange[] {
  return writes === 'everything' ? allocations.map(plainRange) : writes;
}
