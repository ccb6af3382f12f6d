import type { TrackedAllocation } from './tracked-allocation.js';

/** An allocation that appeared in or left the inventory, as `tracker.onChange` listeners see it. */
export interface AllocationChange {
  readonly type: 'allocate' | 'free';
  readonly allocation: TrackedAllocation;
}

/** A listener of {@link AllocationChange}s. */
export type AllocationChangeListener = (change: AllocationChange) => void;
