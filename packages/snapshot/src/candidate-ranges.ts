import type { MemoryKind, MemoryRange } from '@kreplay/native';
import type { ArgumentResolution, TrackedAllocation } from '@kreplay/tracker';
import type { DispatchContext } from './snapshot-strategy.js';

/** A range of application memory a snapshot covers, with the kind of memory it is. */
export interface CandidateRange extends MemoryRange {
  readonly kind: MemoryKind;
}

function isIncluded(allocation: TrackedAllocation): boolean {
  return !allocation.tags.has('excluded');
}

/**
 * Every tracked, non-excluded allocation of the agent, and every host buffer the dispatch reaches
 * with an access that may write (a kernel writing mapped host memory, a range's copies before its
 * dispatches), whole: what `full` snapshots, and what the others fall back to when what the
 * dispatch writes cannot be bounded. By address.
 */
export function allAllocationRanges(dispatch: DispatchContext): CandidateRange[] {
  const ranges: CandidateRange[] = dispatch.tracker
    .allocations(dispatch.agent.id)
    .filter(isIncluded)
    .map((allocation) => ({ address: allocation.address, bytes: allocation.bytes, kind: allocation.kind }));
  const hostBuffers = dispatch.resolution.reached.filter((reached) => reached.allocation.agentId === null && reached.access !== 'read' && isIncluded(reached.allocation));
  if (hostBuffers.length === 0) return ranges;
  for (const { allocation } of hostBuffers) ranges.push({ address: allocation.address, bytes: allocation.bytes, kind: allocation.kind });
  return ranges.sort((a, b) => a.address - b.address);
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
