import type { MemoryEvent, MemoryKind } from '@kreplay/native';
import type { MemoryEventSource } from './tracker.js';

/**
 * Test support (not exported): a stand-in runtime that only delivers memory events, so the tracker
 * is tested without the native addon. `emit` delivers an event to every listener synchronously.
 */
export class FakeRuntime implements MemoryEventSource {
  readonly agents: readonly { readonly id: number }[];
  #listeners: ((event: MemoryEvent) => void)[] = [];

  constructor(agentCount = 2) {
    this.agents = Array.from({ length: agentCount }, (_, id) => ({ id }));
  }

  get listenerCount(): number {
    return this.#listeners.length;
  }

  onMemoryEvent(listener: (event: MemoryEvent) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((candidate) => candidate !== listener);
    };
  }

  emit(event: MemoryEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }

  /** Emits a device allocate of `bytes` at `address` on `agentId`. */
  allocate(agentId: number, address: number, bytes: number, kind: MemoryKind = 'device', queueId?: number): void {
    this.emit({ type: 'allocate', agentId, address, bytes, kind, ...(queueId === undefined ? {} : { queueId }) });
  }

  /** Emits a host-buffer allocate. */
  allocateHost(address: number, bytes: number, pinned = true): void {
    this.emit({ type: 'allocate', agentId: null, address, bytes, kind: pinned ? 'host-pinned' : 'host-pageable' });
  }

  /** Emits a free of the allocation at `address`. */
  free(agentId: number | null, address: number, kind: MemoryKind = agentId === null ? 'host-pinned' : 'device'): void {
    this.emit({ type: 'free', agentId, address, bytes: 0, kind });
  }
}
