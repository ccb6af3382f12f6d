import type { ArgumentResolution } from '@kreplay/tracker';
import { resolveWithBefore } from './before-copies.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { RangeDispatchRequest } from './range-request.js';

/** A range as the engine accepted it: its dispatches and their resolutions when it was requested. */
export interface AcceptedRange {
  readonly dispatches: readonly RangeDispatchRequest[];
  /** Each dispatch's arguments (and the destinations of its copies before) resolved when `dispatchRange()` was called. */
  readonly requested: readonly ArgumentResolution[];
}

/**
 * Resolves every dispatch's arguments when the range is requested (so malformed arguments reject
 * the call itself).
 * @throws {ArgumentError} when the tracker refuses a dispatch's arguments.
 */
export function acceptRange(engine: ResolvedEngineOptions, dispatches: readonly RangeDispatchRequest[]): AcceptedRange {
  const requested = dispatches.map((dispatch) => resolveRangeDispatch(engine, dispatch));
  return { dispatches, requested };
}

/** A dispatch's arguments resolved, merged with the allocations its copies before write. */
export function resolveRangeDispatch(engine: ResolvedEngineOptions, { queue, kernel, args, before }: RangeDispatchRequest): ArgumentResolution {
  const agentId = queue.agent.id;
  return resolveWithBefore(engine.tracker, agentId, engine.tracker.resolveArguments(agentId, kernel, args), before);
}
