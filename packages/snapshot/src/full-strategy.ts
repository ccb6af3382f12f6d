import type { DisposableSnapshotStrategy } from './snapshot-strategy.js';
import type { StagingTierChoice } from './staging-types.js';
import { allAllocationRanges } from './candidate-ranges.js';
import { copyStrategy } from './copy-strategy.js';

/** Options of {@link fullStrategy}. */
export interface FullStrategyOptions {
  /** Where to stage the copy. Default `auto` (device while it fits; else the part that fits on the device, the rest in pinned host memory). */
  readonly tier?: StagingTierChoice;
}

/**
 * The reference behaviour: every tracked allocation of the agent (and every host buffer the
 * dispatch may write) is copied on capture and copied back on every restore, whatever the kernel
 * writes. Kept as the baseline.
 * It keeps nothing across dispatches (each snapshot leases its staging and gives it back at
 * release), so `dispose` does nothing; it is there so that every shipped strategy is disposed alike.
 * @throws ArgumentError when an option is invalid.
 */
export function fullStrategy(options: FullStrategyOptions = {}): DisposableSnapshotStrategy {
  return copyStrategy('full', options.tier, (dispatch) => ({ ranges: allAllocationRanges(dispatch), notes: [] }));
}
