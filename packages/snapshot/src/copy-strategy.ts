import type { DispatchContext, DisposableSnapshotStrategy } from './snapshot-strategy.js';
import { snapshotSpecificationVersion } from './snapshot-strategy.js';
import type { CandidateRange } from './candidate-ranges.js';
import type { StagingTierChoice } from './staging-types.js';
import { prepareCopySnapshot } from './copy-snapshot.js';
import { validateTierChoice } from './validate-strategy-options.js';

/** The ranges a copy strategy copies for one dispatch, and the notes its result carries. */
export interface CopiedRanges {
  readonly ranges: readonly CandidateRange[];
  readonly notes: readonly string[];
}

/**
 * A strategy that copies whole ranges on capture and copies them back on every restore (`full`,
 * `write-set`): `choose` picks the ranges of each dispatch. It keeps nothing across dispatches (each
 * snapshot leases its staging and gives it back at release), so `dispose` does nothing; it is there
 * so that every shipped strategy is disposed alike.
 * @throws ArgumentError when `tier` is not a staging tier choice.
 */
export function copyStrategy(name: string, tier: StagingTierChoice | undefined, choose: (dispatch: DispatchContext) => CopiedRanges): DisposableSnapshotStrategy {
  const choice = validateTierChoice(tier ?? 'auto', name);
  return {
    specificationVersion: snapshotSpecificationVersion,
    name,
    dispose() {},
    [Symbol.dispose]() {},
    prepare(dispatch) {
      const { ranges, notes } = choose(dispatch);
      return prepareCopySnapshot(dispatch, ranges, choice, notes);
    },
  };
}
