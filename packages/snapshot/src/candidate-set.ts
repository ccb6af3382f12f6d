import type { ArgumentResolution } from '@kreplay/tracker';
import type { DispatchContext } from './snapshot-strategy.js';
import type { CandidateRange } from './candidate-ranges.js';

/** The candidate ranges of a dispatch, with what identifies their mirror. */
export interface CandidateSet {
  readonly ranges: readonly CandidateRange[];
  /** The agent and the ranges, as one string: the key of their mirror. */
  readonly key: string;
  /** The tracker's id of the allocation under each range (-1 where none): a mirror is stale when one changes. */
  readonly allocationIds: readonly number[];
}

/** Makes the candidate set of `ranges` on the dispatch's agent. */
export function candidateSet(dispatch: DispatchContext, ranges: readonly CandidateRange[]): CandidateSet {
  return {
    ranges,
    key: `${dispatch.agent.id}|${ranges.map((range) => `${range.address}+${range.bytes}`).join(',')}`,
    allocationIds: ranges.map((range) => dispatch.tracker.find(range.address)?.id ?? -1),
  };
}

/**
 * Candidate sets derived from argument resolutions, remembered per resolution: the tracker hands
 * out the same resolution while its inventory has not changed, and then the ranges, their key and
 * their allocations are the same too.
 */
export class CandidateSetMemo {
  readonly #sets = new WeakMap<ArgumentResolution, { readonly agentId: number; readonly set: CandidateSet }>();

  /** The set `derive` makes from the dispatch's resolution, made once per resolution and agent. */
  of(dispatch: DispatchContext, derive: () => readonly CandidateRange[]): CandidateSet {
    const remembered = this.#sets.get(dispatch.resolution);
    if (remembered !== undefined && remembered.agentId === dispatch.agent.id) return remembered.set;
    const set = candidateSet(dispatch, derive());
    this.#sets.set(dispatch.resolution, { agentId: dispatch.agent.id, set });
    return set;
  }
}
