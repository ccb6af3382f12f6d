import type { MemoryKind, MemoryRange } from '@kreplay/native';
import type { ArgumentResolution, TrackedAllocation, Tracker } from '@kreplay/tracker';

/** A range of application memory a snapshot covers, with the kind of memory it is. */
export interface CandidateRange extends MemoryRange {
  readonly kind: MemoryKind;
}

function isIncluded(allocation: TrackedAllocation): boolean {
  return !allocation.tags.has('excluded');
}

/** Every tracked, non-excluded allocation of the agent: what `full` snapshots. */
export function allAllocationRanges(tracker: Tracker, agentId: number): CandidateRange[] {
  return tracker
    .allocations(agentId)
    .filter(isIncluded)
    .map((allocation) => ({ address: allocation.address, bytes: allocation.bytes, kind: allocation.kind }));
}

/**
 * The ranges a dispatch can write, from its resolved arguments: every reached allocation whose
 * access is not `read` (unknown counts as readwrite), limited to the range the arguments reach.
 * Undefined when the resolution is not bounded (a pointer to pointers), with the reasons.
 */
export function writableRanges(resolution: ArgumentResolution): CandidateRange[] | undefined {
  if (!resolution.bounded) return undefined;
  return resolution.reached
    .filter((reached) => reached.access !== 'read' && isIncluded(reached.allocation))
    .map((reached) => ({ address: reached.range.address, bytes: reached.range.bytes, kind: reached.allocation.kind }));
}
