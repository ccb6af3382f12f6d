import type { Allocation } from './allocation.js';
import type { AllocationState } from './memory-registry.js';

/**
 * Device memory from {@link Queue.enqueueAllocate}: its address is reserved at once, so later work
 * can use it; it is freed with {@link Queue.enqueueFree} when that queue reaches the free.
 */
export class StreamOrderedAllocation implements Allocation {
  readonly address: number;
  readonly bytes: number;
  readonly kind = 'stream-ordered' as const;
  readonly agentId: number;
  /** The queue that allocated it. */
  readonly queueId: number;
  readonly #state: AllocationState;

  /** @internal Made by {@link Queue.enqueueAllocate}. */
  constructor(agentId: number, queueId: number, address: number, bytes: number, state: AllocationState) {
    this.agentId = agentId;
    this.queueId = queueId;
    this.address = address;
    this.bytes = bytes;
    this.#state = state;
  }

  /** True once its free was enqueued (or once its runtime was disposed). */
  get freed(): boolean {
    return this.#state.freed;
  }
}

/** The registry state of a stream-ordered allocation, for {@link Queue.enqueueFree}. @internal */
export const streamOrderedStates = new WeakMap<StreamOrderedAllocation, AllocationState>();
