import type { CopySegment } from '@kreplay/native';
import { mergeResolutions, type ArgumentResolution, type ReachedAllocation, type Tracker, type UnresolvedPointer } from '@kreplay/tracker';

/** The parameter name a copy before a dispatch reaches its destination through, in resolutions and reasons. */
export const beforeParameter = 'before';

/** Per kernel resolution (the tracker hands out the same one while its inventory is unchanged), per copy plan: the merged resolution. */
const remembered = new WeakMap<ArgumentResolution, WeakMap<readonly CopySegment[], ArgumentResolution>>();

/**
 * What a dispatch of a range reaches with the copies enqueued before it: its kernel's resolution
 * merged with the allocations the copies write (access `write`, parameter `before`, the range the
 * destinations cover), so that the snapshot's candidates, the lock's claim and verification's
 * targets include them. A destination in no tracked allocation of the agent or the host is an
 * unresolved pointer (the range is then declined); one in another agent's memory names that agent.
 * Excluded allocations are left out, as the tracker leaves them out of a kernel's resolution.
 * The sources are read only, and not part of it.
 */
export function resolveWithBefore(tracker: Tracker, agentId: number, resolution: ArgumentResolution, before: readonly CopySegment[] | undefined): ArgumentResolution {
  if (before === undefined || before.length === 0) return resolution;
  let byPlan = remembered.get(resolution);
  if (byPlan === undefined) remembered.set(resolution, (byPlan = new WeakMap()));
  const known = byPlan.get(before);
  if (known !== undefined) return known;
  const merged = mergeResolutions([resolution, destinationsResolution(tracker, agentId, before)]);
  byPlan.set(before, merged);
  return merged;
}

/**
 * The allocations the copies write, as a resolution of their own: access `write` through
 * `parameter`; a destination outside tracked memory is an unresolved pointer, its reason naming `what` writes it.
 */
export function destinationsResolution(tracker: Tracker, agentId: number, before: readonly CopySegment[], parameter = beforeParameter, what = 'a copy before the dispatch'): ArgumentResolution {
  const reached = new Map<number, { allocation: ReachedAllocation['allocation']; start: number; end: number }>();
  const unresolved: UnresolvedPointer[] = [];
  const reasons: string[] = [];
  for (const segment of before) {
    let address = segment.destination;
    const end = segment.destination + segment.bytes;
    while (address < end) {
      const allocation = tracker.find(address);
      if (allocation === undefined || (allocation.agentId !== null && allocation.agentId !== agentId)) {
        unresolved.push(Object.freeze({ parameter, address, ...(allocation?.agentId == null ? {} : { peerAgentId: allocation.agentId }) }));
        reasons.push(`${what} writes 0x${address.toString(16)}, in no tracked allocation of agent ${agentId} or the host`);
        break;
      }
      const stop = Math.min(end, allocation.address + allocation.bytes);
      if (!allocation.tags.has('excluded')) {
        const known = reached.get(allocation.id);
        if (known === undefined) reached.set(allocation.id, { allocation, start: address, end: stop });
        else {
          known.start = Math.min(known.start, address);
          known.end = Math.max(known.end, stop);
        }
      }
      address = stop;
    }
  }
  const list = [...reached.values()]
    .sort((a, b) => a.allocation.address - b.allocation.address)
    .map(({ allocation, start, end }) =>
      Object.freeze({ allocation, access: 'write' as const, parameters: Object.freeze([parameter]), range: Object.freeze({ address: start, bytes: end - start }) }),
    );
  return Object.freeze({ reached: Object.freeze(list), bounded: true, reasons: Object.freeze(reasons), unresolved: Object.freeze(unresolved) });
}
