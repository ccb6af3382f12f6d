import { constants } from 'node:buffer';
import type { Allocation } from './allocation.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { nativeMessage } from '../errors/native-message.js';
import type { AllocationState } from './memory-registry.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import { argumentError, formatAddress } from '../errors/validate.js';

/** Host memory from {@link Runtime.allocateHost}, usable by every agent's queues. */
export class HostBuffer implements Allocation, Disposable {
  readonly address: number;
  readonly bytes: number;
  readonly kind: 'host-pinned' | 'host-pageable';
  readonly agentId = null;
  readonly #core: RuntimeCore;
  readonly #state: AllocationState;
  #buffer: ArrayBuffer | undefined;
  #view: Uint8Array | undefined;

  /** @internal Made by {@link Runtime.allocateHost}. */
  constructor(core: RuntimeCore, address: number, bytes: number, pinned: boolean, state: AllocationState) {
    this.#core = core;
    this.address = address;
    this.bytes = bytes;
    this.kind = pinned ? 'host-pinned' : 'host-pageable';
    this.#state = state;
    state.onDispose = () => this.#detach();
  }

  /** True once freed (or once its runtime was disposed). */
  get freed(): boolean {
    return this.#state.freed;
  }

  /**
   * The live bytes of the buffer (no copy; the same view every call). Freeing the buffer detaches
   * the view (its length becomes 0), so it never reads freed memory.
   * @throws {ArgumentError} when the buffer was freed.
   * @throws {UnsupportedError} when the buffer is larger than a typed array can be.
   * @throws {DisposedError} when the runtime was disposed.
   */
  view(): Uint8Array {
    this.#core.assertLive('memory', 'HostBuffer.view()');
    this.#assertNotFreed('view()');
    if (this.#view) return this.#view;
    if (this.bytes > constants.MAX_LENGTH) {
      throw new UnsupportedError({
        packageName: 'native',
        component: 'memory',
        driver: this.#core.driver,
        feature: 'host buffer views this large',
        message: nativeMessage(
          'memory',
          `a view of ${this.bytes} bytes is larger than this Node.js allows in one typed array (${constants.MAX_LENGTH})`,
          'Allocate smaller host buffers, or copy through agent.read/agent.write in parts',
        ),
      });
    }
    this.#buffer = this.#core.native.hostView(this.address, this.bytes);
    this.#view = new Uint8Array(this.#buffer);
    return this.#view;
  }

  /**
   * Frees the buffer and emits a `free` memory event. Its view is detached at once; the memory is
   * released after every queue has run the work enqueued before the free, so queued work never
   * touches released memory.
   * @throws {ArgumentError} when it was already freed.
   * @throws {DisposedError} when the runtime was disposed.
   */
  free(): void {
    this.#core.assertLive('memory', 'HostBuffer.free()');
    this.#assertNotFreed('free()');
    this.#detach();
    this.#core.native.freeHost(this.address, this.bytes);
    this.#core.memory.unregister(this, this.#state);
  }

  /** Frees it unless it was already freed (or its runtime disposed), for `using`. */
  [Symbol.dispose](): void {
    if (!this.freed && !this.#core.disposed) this.free();
  }

  #detach(): void {
    if (this.#buffer) this.#core.native.detachView(this.#buffer);
    this.#buffer = undefined;
    this.#view = undefined;
  }

  #assertNotFreed(call: string): void {
    if (!this.#state.freed) return;
    throw argumentError(
      'memory',
      'buffer',
      `${call} was called on the host buffer at ${formatAddress(this.address)} (${this.bytes} bytes), which was freed`,
      'Allocate a new host buffer with runtime.allocateHost()',
    );
  }
}
