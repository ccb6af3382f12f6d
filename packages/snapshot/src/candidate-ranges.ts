import type { MemoryKind, MemoryRange } from '@kreplay/native';
import type { ArgumentResolution, TrackedAllocation, Tracker } from '@kreplay/tracker';

/** A range of application memory a snapshot covers, with the kind of memory it is. */
export interface CandidateRange extends MemoryRange {
  readonly kind: MemoryKind;
}

function isIncluded(allocation: TrackedAllocation): boolean {
  return !allocation.tags.has('excluded');
}

/**
 * Every tracked, non-excluded allocation of the agent, and every host buffer the dispatch's
 * arguments reach (a kernel writes mapped pinned host memory as it writes device memory): what
 * `full` snapshots, and what the other strategies take when the write set cannot be bounded. These
 * are the allocations replay's verification hashes, so every one it checks is one that was restored.
 */
export function allAllocationRanges(tracker: Tracker, agentId: number, resolution: ArgumentResolution): CandidateRange[] {
  const hostBuffers = resolution.reached.map((reached) => reached.allocation).filter((allocation) => allocation.agentId === null);
  return [...tracker.allocations(agentId), ...hostBuffers]
    .filter(isIncluded)
    .sort((a, b) => a.address - b.address)
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
