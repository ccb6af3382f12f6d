/**
 * A mark the user puts on a tracked allocation:
 * - `read-only`: the application promises kernels never write it (weights, lookup tables). Argument
 *   resolution still reports the declared access, and lists any declared write to it in `reasons`.
 * - `excluded`: leave it out of argument resolution and of the agent's footprint (e.g. memory the
 *   profiler itself owns).
 */
export type AllocationTag = 'read-only' | 'excluded';

/** Whether `value` is an {@link AllocationTag}. */
export function isAllocationTag(value: unknown): value is AllocationTag {
  return value === 'read-only' || value === 'excluded';
}
