import type { Queue } from '@kreplay/native';
import type { HashBufferLease, HashBufferPool } from './hash-buffer-pool.js';

const sourceBytes = 8;

/**
 * One marker per phase: a hash of 8 constant bytes into the phase's slot of a host buffer, enqueued
 * right after the phase's work. A queue skips every operation after its first failure, but its
 * events still complete, so a marker (real work, skipped like the rest) is what shows how far the
 * queue got: the first phase whose slot is still zero is the one that failed. Markers count as
 * `hash` operations for fault injection.
 */
export class PhaseMarkers {
  readonly #lease: HashBufferLease;
  readonly #capacity: number;

  /**
   * @throws {OutOfMemoryError} from the runtime when no host memory is left.
   */
  constructor(buffers: HashBufferPool, capacity: number) {
    this.#capacity = capacity;
    this.#lease = buffers.lease(sourceBytes + capacity * 8);
  }

  /** Clears every slot (and the constant source), before a batch; the queue must be idle. */
  reset(): void {
    this.#lease.view().fill(0, 0, sourceBytes + this.#capacity * 8);
  }

  /** Enqueues the marker of slot `slot`. */
  enqueue(queue: Queue, slot: number): void {
    if (slot >= this.#capacity) throw new RangeError(`[replay] [window] marker slot ${slot} is past ${this.#capacity}. This is a bug in @kreplay/replay.`);
    queue.enqueueHashPages([{ address: this.#lease.address, bytes: sourceBytes }], sourceBytes, this.#lease.address + sourceBytes + slot * 8);
  }

  /** Whether the marker of slot `slot` ran (valid once the queue has completed the batch). */
  reached(slot: number): boolean {
    const view = this.#lease.view();
    const start = sourceBytes + slot * 8;
    for (let index = start; index < start + 8; index += 1) if (view[index] !== 0) return true;
    return false;
  }

  /** Give the buffer back. Idempotent. */
  release(): void {
    this.#lease.release();
  }
}
