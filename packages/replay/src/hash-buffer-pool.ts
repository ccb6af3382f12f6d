import type { HostBuffer, Runtime } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';

/** A host buffer lent to one window for its verification hashes. */
export interface HashBufferLease {
  readonly address: number;
  /** The buffer's live bytes. */
  view(): Uint8Array;
  /** Give it back to the pool. Idempotent. */
  release(): void;
}

const minimumBytes = 4096;

/**
 * Pinned host buffers for verification hashes, kept across dispatches (pinning is expensive).
 * Each is tagged `excluded` in the tracker: it is the engine's memory, not the application's.
 */
export class HashBufferPool {
  readonly #idle: HostBuffer[] = [];
  readonly #all = new Set<HostBuffer>();

  constructor(
    private readonly runtime: Runtime,
    private readonly tracker: Tracker,
  ) {}

  /**
   * Lends a buffer of at least `bytes`.
   * @throws {OutOfMemoryError} from the runtime when no host memory is left.
   */
  lease(bytes: number): HashBufferLease {
    const index = this.#idle.findIndex((buffer) => buffer.bytes >= bytes);
    const buffer = index >= 0 ? this.#idle.splice(index, 1)[0]! : this.#allocate(bytes);
    let leased = true;
    return {
      address: buffer.address,
      view: () => buffer.view(),
      release: () => {
        if (!leased) return;
        leased = false;
        if (this.#all.has(buffer)) this.#idle.push(buffer);
      },
    };
  }

  /** Frees every buffer; leases still out become invalid. */
  dispose(): void {
    for (const buffer of this.#all) if (!buffer.freed) buffer.free();
    this.#all.clear();
    this.#idle.length = 0;
  }

  #allocate(bytes: number): HostBuffer {
    const size = Math.max(minimumBytes, 2 ** Math.ceil(Math.log2(Math.max(bytes, 1))));
    const buffer = this.runtime.allocateHost(size, { pinned: true });
    try {
      this.tracker.tag(buffer.address, 'excluded');
    } catch {
      // A tracker that does not track host buffers has nothing to exclude.
    }
    this.#all.add(buffer);
    return buffer;
  }
}
