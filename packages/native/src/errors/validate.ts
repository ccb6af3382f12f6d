/**
 * The one validation helper module of the package: every public method checks its arguments with
 * these before anything reaches the addon (which trusts what it is given).
 * @internal
 */
import type { Allocation } from '../memory/allocation.js';
import { ArgumentError } from './argument-error.js';
import { nativeMessage } from './native-message.js';

/** The largest page size accepted (one page index must fit 32 bits; pages this large are already absurd). */
export const MAXIMUM_PAGE_BYTES = 2 ** 32;

/** The most pages one operation may number: page indices and counts are uint32. */
export const MAXIMUM_PAGE_COUNT = 2 ** 32 - 1;

/** An {@link ArgumentError} of this package. */
export function argumentError(component: string, argument: string, what: string, fix: string): ArgumentError {
  return new ArgumentError({ packageName: 'native', component, argument, message: nativeMessage(component, what, fix) });
}

/** Shows a caller's value in a message without throwing on odd values. */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'function') return 'a function';
  return Object.prototype.toString.call(value);
}

/** Formats an address the way every message shows it. */
export function formatAddress(address: number): string {
  return `0x${address.toString(16)}`;
}

/**
 * A safe integer in [minimum, maximum].
 * @throws {ArgumentError} for anything else (NaN, fractions, bigint, out of bounds).
 */
export function requireInteger(component: string, argument: string, value: unknown, minimum: number, maximum: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum && value <= maximum) return value;
  throw argumentError(
    component,
    argument,
    `${argument} is ${describeValue(value)}, not an integer between ${minimum} and ${maximum}`,
    `Pass a whole number from ${minimum} to ${maximum}`,
  );
}

/**
 * A byte count: a non-negative safe integer, and positive unless `allowZero`.
 * @throws {ArgumentError} for negative, fractional, NaN, non-number or > Number.MAX_SAFE_INTEGER sizes, and zero where invalid.
 */
export function requireByteCount(component: string, argument: string, value: unknown, allowZero: boolean): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && (value > 0 || (allowZero && value === 0))) return value;
  const what =
    typeof value !== 'number'
      ? `${argument} is ${describeValue(value)}, not a number of bytes`
      : Number.isNaN(value)
        ? `${argument} is NaN`
        : value < 0
          ? `${argument} is negative (${value})`
          : !Number.isInteger(value)
            ? `${argument} is ${value}, not a whole number of bytes`
            : value > Number.MAX_SAFE_INTEGER
              ? `${argument} is ${value}, above Number.MAX_SAFE_INTEGER`
              : `${argument} is 0`;
  throw argumentError(
    component,
    argument,
    what,
    `Pass a whole number of bytes ${allowZero ? 'from 0' : 'from 1'} to ${Number.MAX_SAFE_INTEGER}`,
  );
}

/**
 * An address: a non-negative safe integer.
 * @throws {ArgumentError} otherwise.
 */
export function requireAddress(component: string, argument: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw argumentError(
    component,
    argument,
    `${argument} is ${describeValue(value)}, not an address`,
    'Pass the address (a non-negative whole number) of an allocation or host buffer, or an offset into one',
  );
}

/**
 * A page size: a whole number of bytes from 1 to 2^32.
 * @throws {ArgumentError} otherwise.
 */
export function requirePageBytes(component: string, argument: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAXIMUM_PAGE_BYTES) return value;
  throw argumentError(
    component,
    argument,
    `${argument} is ${describeValue(value)}, not a page size`,
    `Pass a whole number of bytes from 1 to 2^32, e.g. 4096 or 65536`,
  );
}

/** @throws {ArgumentError} unless `value` is an array. */
export function requireArray(component: string, argument: string, value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not an array`, `Pass an array`);
}

/** @throws {ArgumentError} unless `value` is a non-null object. */
export function requireObject(component: string, argument: string, value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not an object`, `Pass an object`);
}

/** @throws {ArgumentError} unless `value` is a boolean. */
export function requireBoolean(component: string, argument: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not a boolean`, 'Pass true or false');
}

/** @throws {ArgumentError} unless `value` is one of `choices`. */
export function requireChoice<T extends string>(component: string, argument: string, value: unknown, choices: readonly T[]): T {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw argumentError(
    component,
    argument,
    `${argument} is ${describeValue(value)}, not one of ${choices.join(', ')}`,
    `Pass one of ${choices.map((choice) => `'${choice}'`).join(', ')}`,
  );
}

/** @throws {ArgumentError} when `value` has a key outside `keys` (most likely a typo). */
export function requireKnownKeys(component: string, argument: string, value: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) {
      throw argumentError(
        component,
        `${argument}.${key}`,
        `${argument} has an unknown option "${key}"`,
        `Use only ${keys.join(', ')}`,
      );
    }
  }
}

/** @throws {ArgumentError} unless `value` is a function. */
export function requireFunction(component: string, argument: string, value: unknown): (...args: never[]) => unknown {
  if (typeof value === 'function') return value as (...args: never[]) => unknown;
  throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not a function`, 'Pass a function');
}

/** How validation sees live memory. */
export interface LiveMemoryLookup {
  /** The live allocation holding `address` that `agentId` can reach (its device memory or a host buffer). */
  reachable(agentId: number, address: number): Allocation | undefined;
  /** The live allocation holding `address` on any agent, for messages. */
  anywhere(address: number): Allocation | undefined;
}

function describeRange(address: number, bytes: number): string {
  return `[${formatAddress(address)}, ${formatAddress(address + bytes)})`;
}

/**
 * The live allocation holding `[address, address + bytes)` that `agentId` can reach, when the range
 * is plainly valid (whole, non-negative numbers inside one allocation); undefined otherwise, and
 * then {@link requireLiveRange} says what is wrong. The check of every enqueue, kept free of the
 * error messages' strings.
 */
export function liveRangeHolder(memory: LiveMemoryLookup, agentId: number, address: unknown, bytes: unknown): Allocation | undefined {
  if (typeof address !== 'number' || typeof bytes !== 'number' || !Number.isSafeInteger(address) || !Number.isSafeInteger(bytes)) return undefined;
  if (address < 0 || bytes < 0) return undefined;
  const holder = memory.reachable(agentId, address);
  return holder !== undefined && address + bytes <= holder.address + holder.bytes ? holder : undefined;
}

/**
 * Checks that `[address, address + bytes)` lies inside one live allocation `agentId` can reach.
 * A zero-byte range may sit anywhere from an allocation's start to its end.
 * @throws {ArgumentError} naming the range and the fix: not an address or size, outside every live
 * allocation (e.g. freed), in another agent's memory, or running past its allocation's end.
 */
export function requireLiveRange(
  component: string,
  argument: string,
  memory: LiveMemoryLookup,
  agentId: number,
  address: unknown,
  bytes: unknown,
): Allocation {
  const plainlyLive = liveRangeHolder(memory, agentId, address, bytes);
  if (plainlyLive !== undefined) return plainlyLive;
  const start = requireAddress(component, `${argument}.address`, address);
  const length = requireByteCount(component, `${argument}.bytes`, bytes, true);
  let holder = memory.reachable(agentId, start);
  if (holder === undefined && length === 0 && start > 0) {
    const before = memory.reachable(agentId, start - 1);
    if (before !== undefined && before.address + before.bytes === start) holder = before;
  }
  if (holder !== undefined) {
    const end = holder.address + holder.bytes;
    if (start + length <= end) return holder;
    throw argumentError(
      component,
      argument,
      `${argument} ${describeRange(start, length)} runs ${start + length - end} bytes past the end of its ${holder.kind} allocation ${describeRange(holder.address, holder.bytes)}`,
      'Keep every range inside one allocation; split it per allocation if it spans several',
    );
  }
  const elsewhere = memory.anywhere(start);
  if (elsewhere !== undefined && elsewhere.agentId !== null && elsewhere.agentId !== agentId) {
    throw argumentError(
      component,
      argument,
      `${argument} ${describeRange(start, length)} is device memory of agent ${elsewhere.agentId}, which agent ${agentId} cannot reach`,
      `Use a queue of agent ${elsewhere.agentId}, or stage the bytes through a host buffer`,
    );
  }
  throw argumentError(
    component,
    argument,
    `${argument} ${describeRange(start, length)} is not inside a live allocation of agent ${agentId} or a host buffer (it may have been freed)`,
    'Pass a range inside memory from allocate, enqueueAllocate or allocateHost that has not been freed',
  );
}
