import type { MemoryEvent, MemoryKind } from '@kreplay/native';

/** One allocation of the fake runtime: its bytes live in a Uint8Array. */
export class FakeAllocation {
  freed = false;
  readonly data: Uint8Array;

  constructor(
    readonly memory: FakeMemory,
    readonly address: number,
    readonly bytes: number,
    readonly kind: MemoryKind,
    readonly agentId: number | null,
  ) {
    this.data = new Uint8Array(bytes);
  }

  view(): Uint8Array {
    return this.data;
  }

  free(): void {
    if (this.freed) throw new Error('fake: double free');
    this.memory.release(this);
  }
}

/**
 * The address space of the fake runtime: allocations by address, each with its own bytes, and the
 * memory events a tracker listens to.
 */
export class FakeMemory {
  readonly #allocations = new Map<number, FakeAllocation>();
  readonly #listeners = new Set<(event: MemoryEvent) => void>();
  #next = 0x10_0000;

  onMemoryEvent(listener: (event: MemoryEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  allocate(bytes: number, kind: MemoryKind, agentId: number | null, silently = false): FakeAllocation {
    const allocation = new FakeAllocation(this, this.#next, bytes, kind, agentId);
    this.#next += Math.ceil((bytes + 1) / 4096) * 4096 + 4096;
    this.#allocations.set(allocation.address, allocation);
    if (!silently) this.#emit({ type: 'allocate', agentId, address: allocation.address, bytes, kind });
    return allocation;
  }

  release(allocation: FakeAllocation): void {
    allocation.freed = true;
    this.#allocations.delete(allocation.address);
    this.#emit({ type: 'free', agentId: allocation.agentId, address: allocation.address, bytes: allocation.bytes, kind: allocation.kind });
  }

  get liveCount(): number {
    return this.#allocations.size;
  }

  /** The bytes of `[address, address + bytes)`, a view into the allocation holding them. */
  span(address: number, bytes: number): Uint8Array {
    for (const allocation of this.#allocations.values()) {
      const offset = address - allocation.address;
      if (offset >= 0 && offset + bytes <= allocation.bytes) return allocation.data.subarray(offset, offset + bytes);
    }
    throw new Error(`fake: range 0x${address.toString(16)}+${bytes} is in no allocation`);
  }

  #emit(event: MemoryEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
