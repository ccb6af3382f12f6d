import type { ArgumentResolution } from '@kreplay/tracker';
import { declineBeforePreparing, type Decline } from './decline.js';
import type { DispatchRequest } from './dispatch-request.js';
import { replayArgumentError } from './validate.js';

/**
 * The first decline a dispatch of the range calls for, the dispatch named: the declines a single
 * dispatch would get, or `allocations-changed` when what it reaches now is not what it reached
 * when the range was requested.
 * @throws {ArgumentError} when a dispatch reaches memory freed since the range was requested.
 */
export function declineRange(
  dispatches: readonly DispatchRequest[],
  requested: readonly ArgumentResolution[],
  resolutions: readonly ArgumentResolution[],
): Decline | undefined {
  for (let index = 0; index < dispatches.length; index += 1) {
    const dispatch = dispatches[index]!;
    const changed = changedAllocations(requested[index]!, resolutions[index]!);
    if (changed !== undefined && resolutions[index]!.unresolved.length > requested[index]!.unresolved.length) {
      throw replayArgumentError(
        'dispatch',
        'dispatches',
        `dispatch ${index} of the range of ${dispatches.length} cannot run: memory that kernel ${dispatch.kernel.name} reaches was freed after the range was requested (${changed})`,
        'Free memory only once the ranges that reach it have completed',
      );
    }
    const decline: Decline | undefined =
      changed === undefined
        ? declineBeforePreparing(dispatch, resolutions[index]!)
        : { code: 'allocations-changed', reason: `memory that kernel ${dispatch.kernel.name} reaches changed after the range was requested: ${changed}` };
    if (decline !== undefined) return { code: decline.code, reason: `dispatch ${index} of the range of ${dispatches.length}: ${decline.reason}` };
  }
  return undefined;
}

/** What changed between two resolutions of the same arguments, in words; undefined when they reach the same allocations. */
function changedAllocations(before: ArgumentResolution, after: ArgumentResolution): string | undefined {
  if (before === after) return undefined;
  const now = new Map(after.reached.map((reached) => [reached.allocation.id, reached]));
  for (const reached of before.reached) {
    if (!now.has(reached.allocation.id)) {
      const { id, address } = reached.allocation;
      return `allocation #${id} at 0x${address.toString(16)} (argument ${reached.parameters.map((name) => `"${name}"`).join(', ')}) was freed`;
    }
  }
  const then = new Set(before.reached.map((reached) => reached.allocation.id));
  const added = after.reached.find((reached) => !then.has(reached.allocation.id));
  if (added !== undefined) return `argument ${added.parameters.map((name) => `"${name}"`).join(', ')} now reaches allocation #${added.allocation.id}, made after the range was requested`;
  return undefined;
}
