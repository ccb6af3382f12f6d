import type { Allocation } from './allocation.js';
import type { AllocationState } from './memory-registry.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import { argumentError, formatAddress } from '../errors/validate.js';

/** Device memory from {@link Agent.allocate}. */
export class DeviceAllocation implements Allocation, Disposable {
  readonly address: number;
  readonly bytes: number;
  readonly kind = 'device' as const;
  readonly agentId: number;
  readonly #core: RuntimeCore;
  readonly #state: AllocationState;

  /** @internal Made by {@link Agent.allocate}. */
  constructor(core: RuntimeCore, agentId: number, address: number, bytes: number, state: AllocationState) {
    this.#core = core;
    this.agentId = agentId;
    this.address = address;
    this.bytes = bytes;
    this.#state = state;
  }

  /** True once freed (or once its runtime was disposed). */
  get freed(): boolean {
    return this.#state.freed;
  }

  /**
   * Frees the memory and emits a `free` memory event. It counts as freed at once; the memory is
   * reused only after the agent's queues have run the work enqueued before the free (as cudaFree
   * waits for the device), so queued work never sees it reallocated.
   * @throws {ArgumentError} when it was already freed.
   * @throws {DisposedError} when the runtime was disposed.
   */
  free(): void {
    this.#core.assertLive('memory', 'DeviceAllocation.free()');
    if (this.#state.freed) {
      throw argumentError(
        'memory',
        'allocation',
        `the device allocation at ${formatAddress(this.address)} (${this.bytes} bytes, agent ${this.agentId}) was already freed`,
        'Free each allocation once',
      );
    }
    this.#core.native.free(this.agentId, this.address);
    this.#core.memory.unregister(this, this.#state);
  }

  /** Frees it unless it was already freed (or its runtime disposed), for `using`. */
  [Symbol.dispose](): void {
    if (!this.freed && !this.#core.disposed) this.free();
  }
}
