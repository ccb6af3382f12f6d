import { AddressRangeMap } from '@kreplay/native';
import type { AllocationRecord, TrackedAllocation } from './tracked-allocation.js';

/**
 * The allocations of one agent (or of the host) by address, over native's {@link AddressRangeMap}:
 * interior-pointer lookup in O(log n), and a by-address list kept until the next change, so that
 * listing an agent's allocations for every dispatch costs nothing when nothing changed.
 */
export class AllocationMap {
  readonly #ranges = new AddressRangeMap<AllocationRecord>();
  #sorted: readonly TrackedAllocation[] | undefined = Object.freeze([]);

  get size(): number {
    return this.#ranges.size;
  }

  /** The record holding `address` (any interior pointer), if any. */
  find(address: number): AllocationRecord | undefined {
    return this.#ranges.find(address);
  }

  /**
   * Inserts a record. Live records it overlaps (their frees were never seen) are removed first and
   * returned, so the map always mirrors the runtime's latest word.
   */
  insert(record: AllocationRecord): AllocationRecord[] {
    const { address, bytes } = record.allocation;
    let stale: AllocationRecord[] = [];
    try {
      this.#ranges.insert(address, bytes, record);
    } catch {
      // Rare (a free was missed): the map refused an overlap; a linear scan finds what it overlaps.
      stale = this.#overlapping(address, bytes);
      for (const old of stale) this.#ranges.remove(old.allocation.address);
      this.#ranges.insert(address, bytes, record);
    }
    this.#sorted = undefined;
    return stale;
  }

  /** Removes the record starting exactly at `address`; undefined when none starts there. */
  removeAt(address: number): AllocationRecord | undefined {
    const record = this.#ranges.remove(address);
    if (record !== undefined) this.#sorted = undefined;
    return record;
  }

  /** Every allocation, by address (a frozen array, reused until the map changes). */
  list(): readonly TrackedAllocation[] {
    if (this.#sorted === undefined) {
      const allocations = Array.from(this.#ranges.values(), (record) => record.allocation);
      allocations.sort((a, b) => a.address - b.address);
      this.#sorted = Object.freeze(allocations);
    }
    return this.#sorted;
  }

  #overlapping(address: number, bytes: number): AllocationRecord[] {
    const end = address + bytes;
    return Array.from(this.#ranges.values()).filter(
      ({ allocation }) => allocation.address < end && address < allocation.address + allocation.bytes,
    );
  }
}
