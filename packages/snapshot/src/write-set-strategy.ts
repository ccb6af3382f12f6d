import type { DisposableSnapshotStrategy } from './snapshot-strategy.js';
import type { StagingTierChoice } from './staging-types.js';
import { allAllocationRanges, writableRanges } from './candidate-ranges.js';
import { copyStrategy } from './copy-strategy.js';

/** Options of {@link writeSetStrategy}. */
export interface WriteSetStrategyOptions {
  /** Where to stage the copy. Default `auto` (device while it fits; else the part that fits on the device, the rest in pinned host memory). */
  readonly tier?: StagingTierChoice;
}

/**
 * Copies only what the dispatch can write: its pointer arguments resolved through the tracker,
 * filtered by declared access (unknown counts as readwrite). When the arguments can reach memory
 * indirectly, the write set cannot be bounded: it falls back to `full` and says why in the notes.
 * It keeps nothing across dispatches (each snapshot leases its staging and gives it back at
 * release), so `dispose` does nothing; it is there so that every shipped strategy is disposed alike.
 * @throws ArgumentError when an option is invalid.
 */
export function writeSetStrategy(options: WriteSetStrategyOptions = {}): DisposableSnapshotStrategy {
  return copyStrategy('write-set', options.tier, (dispatch) => {
    const ranges = writableRanges(dispatch.resolution);
    if (ranges) return { ranges, notes: [] };
    return { ranges: allAllocationRanges(dispatch), notes: [`write-set fell back to full: ${dispatch.resolution.reasons.join('; ') || 'arguments not bounded'}`] };
  });
}
