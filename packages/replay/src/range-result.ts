import type { DispatchResult } from './dispatch-result.js';

/** What one dispatch of a range collected. */
export interface RangeDispatchResult {
  readonly kernelName: string;
  /** The pass provider's value for this dispatch (its `collectRange`); absent when it has none. */
  readonly collected?: unknown;
}

/**
 * The outcome of a range through the engine: the fields of a {@link DispatchResult}, for the range
 * as one unit (its bytes, passes, phase timings, verification, decline), plus each dispatch's
 * values. `passes` and `timings.passMs` count whole passes of the sequence. `collected` is the pass
 * provider's `collect` value for the whole range, present only when it has no `collectRange`.
 * Plain data: `JSON.stringify` keeps all of it.
 */
export interface RangeResult extends DispatchResult {
  /** One entry per dispatch of the range, in order. */
  readonly dispatches: readonly RangeDispatchResult[];
}
