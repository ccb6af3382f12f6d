import { argumentError, describeValue, formatAddress } from '../errors/validate.js';

const component = 'address-range-map';

/**
 * An ordered map of non-overlapping `[address, address + bytes)` ranges to values: a sorted array
 * with binary search, so `find` of any interior address is O(log n).
 */
export class AddressRangeMap<T> {
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #values: T[] = [];

  /** How many ranges the map holds. */
  get size(): number {
    return this.#starts.length;
  }

  /**
   * Adds `[address, address + bytes)` with its value.
   * @throws {ArgumentError} when address or bytes is not a non-negative (bytes: positive) safe
   * integer, or the range overlaps one already in the map.
   */
  insert(address: number, bytes: number, value: T): void {
    if (!Number.isSafeInteger(address) || address < 0 || !Number.isSafeInteger(bytes) || bytes <= 0) {
      throw argumentError(
        component,
        'range',
        `the range at ${describeValue(address)} of ${describeValue(bytes)} bytes is not a range`,
        'Pass a non-negative whole address and a positive whole number of bytes',
      );
    }
    const index = this.#firstEndingAfter(address);
    const nextStart = this.#starts[index];
    if (nextStart !== undefined && nextStart < address + bytes) {
      throw argumentError(
        component,
        'range',
        `the range [${formatAddress(address)}, ${formatAddress(address + bytes)}) overlaps [${formatAddress(nextStart)}, ${formatAddress(this.#ends[index] ?? nextStart)})`,
        'Remove the old range first; live ranges never overlap',
      );
    }
    this.#starts.splice(index, 0, address);
    this.#ends.splice(index, 0, address + bytes);
    this.#values.splice(index, 0, value);
  }

  /** Removes the range starting exactly at `address`; returns its value, or undefined when none starts there. */
  remove(address: number): T | undefined {
    const index = this.#firstEndingAfter(address);
    if (this.#starts[index] !== address) return undefined;
    const value = this.#values[index];
    this.#starts.splice(index, 1);
    this.#ends.splice(index, 1);
    this.#values.splice(index, 1);
    return value;
  }

  /** The value of the range holding `address` (any interior address), or undefined. */
  find(address: number): T | undefined {
    const index = this.#firstEndingAfter(address);
    const start = this.#starts[index];
    return start !== undefined && start <= address ? this.#values[index] : undefined;
  }

  /** The value of the first range that overlaps `[address, address + bytes)`, or undefined. */
  firstOverlapping(address: number, bytes: number): T | undefined {
    const index = this.#firstEndingAfter(address);
    const start = this.#starts[index];
    return start !== undefined && start < address + bytes ? this.#values[index] : undefined;
  }

  /** The values by address (a snapshot: changing the map while iterating is safe). */
  values(): IterableIterator<T> {
    return this.#values.slice().values();
  }

  /** The ranges and values by address (a snapshot). */
  *entries(): IterableIterator<{ readonly address: number; readonly bytes: number; readonly value: T }> {
    const starts = this.#starts.slice();
    const ends = this.#ends.slice();
    const values = this.#values.slice();
    for (let index = 0; index < starts.length; index += 1) {
      yield { address: starts[index]!, bytes: ends[index]! - starts[index]!, value: values[index]! };
    }
  }

  /** Removes every range. */
  clear(): void {
    this.#starts.length = 0;
    this.#ends.length = 0;
    this.#values.length = 0;
  }

  /** The index of the first range whose end is above `address` (binary search). */
  #firstEndingAfter(address: number): number {
    let low = 0;
    let high = this.#ends.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#ends[middle]! <= address) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
