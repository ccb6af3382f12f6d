import { AddressRangeMap } from './address-range-map.js';
import type { Allocation } from './allocation.js';
import type { MemoryEvent } from '../runtime/runtime-types.js';
import type { LiveMemoryLookup } from '../errors/validate.js';

/** The mutable side of an allocation object, shared with the registry. @internal */
export interface AllocationState {
  freed: boolean;
  /** Called when the runtime is disposed with the allocation live (a host buffer detaches its view). */
  onDispose?: () => void;
}

interface Entry {
  readonly allocation: Allocation;
  readonly state: AllocationState;
}

/**
 * The live memory of one runtime: device and stream-ordered allocations per agent, host buffers,
 * and the listeners that see every allocate and free, synchronously and in program order.
 * @internal
 */
export class MemoryRegistry implements LiveMemoryLookup {
  readonly #devices: AddressRangeMap<Entry>[];
  readonly #host = new AddressRangeMap<Entry>();
  #listeners: readonly ((event: MemoryEvent) => void)[] = [];
  #frees = 0;

  /** How many allocations were freed so far: a range found live stays live while this has not moved. */
  get frees(): number {
    return this.#frees;
  }

  constructor(agentCount: number) {
    this.#devices = Array.from({ length: agentCount }, () => new AddressRangeMap<Entry>());
  }

  /** Adds a live allocation and tells the listeners. */
  register(allocation: Allocation, state: AllocationState, queueId?: number): void {
    this.#mapOf(allocation).insert(allocation.address, allocation.bytes, { allocation, state });
    this.#emit('allocate', allocation, queueId);
  }

  /** Marks an allocation freed, forgets it, and tells the listeners. */
  unregister(allocation: Allocation, state: AllocationState, queueId?: number): void {
    state.freed = true;
    this.#frees += 1;
    this.#mapOf(allocation).remove(allocation.address);
    this.#emit('free', allocation, queueId);
  }

  reachable(agentId: number, address: number): Allocation | undefined {
    return (this.#devices[agentId]?.find(address) ?? this.#host.find(address))?.allocation;
  }

  anywhere(address: number): Allocation | undefined {
    for (const device of this.#devices) {
      const entry = device.find(address);
      if (entry) return entry.allocation;
    }
    return this.#host.find(address)?.allocation;
  }

  /** A live allocation (any agent's or a host buffer) that overlaps `[address, address + bytes)`. */
  overlapping(address: number, bytes: number): Allocation | undefined {
    for (const map of [...this.#devices, this.#host]) {
      const entry = map.firstOverlapping(address, bytes);
      if (entry) return entry.allocation;
    }
    return undefined;
  }

  /** Adds a listener; returns its unsubscribe function. */
  subscribe(listener: (event: MemoryEvent) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((candidate) => candidate !== listener);
    };
  }

  /** At runtime dispose: every allocation becomes freed (no events), and listeners are dropped. */
  disposeAll(): void {
    this.#frees += 1;
    for (const map of [...this.#devices, this.#host]) {
      for (const { state } of map.values()) {
        state.freed = true;
        state.onDispose?.();
      }
      map.clear();
    }
    this.#listeners = [];
  }

  #mapOf(allocation: Allocation): AddressRangeMap<Entry> {
    return allocation.agentId === null ? this.#host : this.#devices[allocation.agentId]!;
  }

  /** Calls every listener; if some throw, the first error is rethrown after all were called. */
  #emit(type: MemoryEvent['type'], allocation: Allocation, queueId: number | undefined): void {
    const listeners = this.#listeners;
    if (listeners.length === 0) return;
    const event: MemoryEvent = Object.freeze({
      type,
      agentId: allocation.agentId,
      address: allocation.address,
      bytes: allocation.bytes,
      kind: allocation.kind,
      ...(queueId === undefined ? {} : { queueId }),
    });
    let failure: { error: unknown } | undefined;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
