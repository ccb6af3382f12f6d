import type { SnapshotStrategy } from './snapshot-strategy.js';
import { snapshotSpecificationVersion } from './snapshot-strategy.js';
import type { StagingTierChoice } from './staging-types.js';
import { allAllocationRanges } from './candidate-ranges.js';
import { prepareCopySnapshot } from './copy-snapshot.js';
import { validateTierChoice } from './validate-strategy-options.js';

/** Options of {@link fullStrategy}. */
export interface FullStrategyOptions {
  /** Where to stage the copy. Default `auto`. */
  readonly tier?: StagingTierChoice;
}

/**
 * The reference behaviour: every tracked allocation of the agent is copied on capture and copied
 * back on every restore, whatever the kernel writes. Kept as the baseline.
 * @throws ArgumentError when an option is invalid.
 */
export function fullStrategy(options: FullStrategyOptions = {}): SnapshotStrategy {
  const tier = validateTierChoice(options.tier ?? 'auto', 'full');
  return {
    specificationVersion: snapshotSpecificationVersion,
    name: 'full',
    prepare: (dispatch) => prepareCopySnapshot(dispatch, allAllocationRanges(dispatch.tracker, dispatch.agent.id), tier, []),
  };
}
