import type { MemoryEvent } from '@kreplay/native';
import type { AllocationChange } from './allocation-change.js';
import type { AllocationTag } from './allocation-tag.js';
import { AllocationMap } from './allocation-map.js';
import type { AllocationLookup } from './argument-resolution.js';
import { Footprint } from './footprint.js';
import { createAllocationRecord, isDeviceKind, type AllocationRecord } from './tracked-allocation.js';
import { createTrackerStats, type MutableTrackerStats } from './tracker-stats.js';

const memoryKinds = new Set(['device', 'stream-ordered', 'host-pinned', 'host-pageable']);

/**
 * The tracker's state: one allocation map per agent and one for host buffers, the footprint per
 * agent, and counters. It changes only through {@link Inventory.apply} (a memory event) and
 * {@link Inventory.setTag}; it never throws on an event, whatever the event says.
 */
export class Inventory implements AllocationLookup {
  readonly stats: MutableTrackerStats = createTrackerStats();
  readonly footprint = new Footprint();
  readonly host = new AllocationMap();
  readonly #agents = new Map<number, AllocationMap>();
  readonly #trackHostBuffers: boolean;
  #nextId = 1;
  #version = 0;

  constructor(agentIds: Iterable<number>, trackHostBuffers: boolean) {
    for (const agentId of agentIds) this.#agents.set(agentId, new AllocationMap());
    this.#trackHostBuffers = trackHostBuffers;
  }

  /** Moves on every change to an allocation or a tag: what was derived at one version holds while it stays. */
  get version(): number {
    return this.#version;
  }

  /** The ids of the agents known so far (the runtime's, and any an event named), ascending. */
  agentIds(): number[] {
    return [...this.#agents.keys()].sort((a, b) => a - b);
  }

  /** The agent's allocation map, or undefined for an agent never heard of. */
  agent(agentId: number): AllocationMap | undefined {
    return this.#agents.get(agentId);
  }

  /** Applies one memory event; returns the changes it made, in order. Never throws. */
  apply(event: MemoryEvent): AllocationChange[] {
    this.stats.events += 1;
    if (!isWellFormed(event)) {
      this.stats.malformedEvents += 1;
      return [];
    }
    const onHost = !isDeviceKind(event.kind);
    if (onHost && !this.#trackHostBuffers) {
      this.stats.ignoredHostEvents += 1;
      return [];
    }
    const map = onHost ? this.host : this.#agentMap(event.agentId as number);
    this.#version += 1;
    return event.type === 'allocate' ? this.#allocate(map, event) : this.#free(map, event.address);
  }

  /** Adds or removes a tag, keeping the footprint right. */
  setTag(record: AllocationRecord, tag: AllocationTag, present: boolean): void {
    if (record.tags.has(tag) === present) return;
    this.#version += 1;
    if (present) record.tags.add(tag);
    else record.tags.delete(tag);
    const { agentId, bytes, kind } = record.allocation;
    if (tag === 'excluded' && isDeviceKind(kind) && agentId !== null) {
      if (present) this.footprint.subtract(agentId, bytes);
      else this.footprint.add(agentId, bytes);
    }
  }

  /** The record holding `address` in any map (host first), if any. O(agents x log n). */
  findAnywhere(address: number): AllocationRecord | undefined {
    const record = this.host.find(address);
    if (record !== undefined) return record;
    for (const map of this.#agents.values()) {
      const found = map.find(address);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The record holding `address` among the agent's allocations and host buffers. */
  findReachable(agentId: number, address: number): AllocationRecord | undefined {
    return this.#agents.get(agentId)?.find(address) ?? this.host.find(address);
  }

  #agentMap(agentId: number): AllocationMap {
    let map = this.#agents.get(agentId);
    if (map === undefined) {
      map = new AllocationMap();
      this.#agents.set(agentId, map);
    }
    return map;
  }

  #allocate(map: AllocationMap, event: MemoryEvent): AllocationChange[] {
    const record = createAllocationRecord(this.#nextId++, event);
    const stale = map.insert(record);
    const changes: AllocationChange[] = [];
    for (const old of stale) {
      this.stats.overlappedAllocations += 1;
      this.#countOut(old);
      changes.push(Object.freeze({ type: 'free' as const, allocation: old.allocation }));
    }
    const { agentId, bytes } = record.allocation;
    if (agentId !== null) this.footprint.add(agentId, bytes);
    changes.push(Object.freeze({ type: 'allocate' as const, allocation: record.allocation }));
    return changes;
  }

  #free(map: AllocationMap, address: number): AllocationChange[] {
    const record = map.removeAt(address);
    if (record === undefined) {
      this.stats.unknownFrees += 1;
      return [];
    }
    this.#countOut(record);
    return [Object.freeze({ type: 'free' as const, allocation: record.allocation })];
  }

  #countOut(record: AllocationRecord): void {
    const { agentId, bytes } = record.allocation;
    if (agentId !== null && !record.tags.has('excluded')) this.footprint.subtract(agentId, bytes);
  }
}

function isWellFormed(event: MemoryEvent): boolean {
  if (typeof event !== 'object' || event === null) return false;
  const { type, kind, address, bytes, agentId } = event;
  if (type !== 'allocate' && type !== 'free') return false;
  if (!memoryKinds.has(kind) || !Number.isSafeInteger(address) || address < 0) return false;
  if (type === 'allocate' && (!Number.isSafeInteger(bytes) || bytes <= 0)) return false;
  if (type === 'allocate' && !Number.isSafeInteger(address + bytes)) return false;
  if (isDeviceKind(kind)) return Number.isSafeInteger(agentId) && (agentId as number) >= 0;
  return true;
}
