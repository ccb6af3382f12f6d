import { isAllocationTag, type AllocationTag } from './allocation-tag.js';
import { describeValue, trackerArgumentError, type TrackerComponent } from './errors.js';

/**
 * Checks that `value` is an address: a non-negative safe integer (a bigint within that range is
 * accepted and converted). Returns it as a number.
 * @throws {ArgumentError} when it is not.
 */
export function requireAddress(
  component: TrackerComponent,
  argument: string,
  value: unknown,
  label = argument,
): number {
  const address = toNonNegativeInteger(value);
  if (address !== undefined) return address;
  throw trackerArgumentError(
    component,
    argument,
    `${label} is ${describeValue(value)}, not an address`,
    'Pass a non-negative integer (a number or a bigint up to 2^53 - 1), e.g. allocation.address',
  );
}

/**
 * Checks that `value` is a count of bytes or elements: a non-negative safe integer (number or bigint).
 * @throws {ArgumentError} when it is not.
 */
export function requireCount(
  component: TrackerComponent,
  argument: string,
  value: unknown,
  label = argument,
): number {
  const count = toNonNegativeInteger(value);
  if (count !== undefined) return count;
  throw trackerArgumentError(
    component,
    argument,
    `${label} is ${describeValue(value)}, not a non-negative integer`,
    'Pass a whole number of at least 0 (a number or a bigint up to 2^53 - 1)',
  );
}

/** `value` as a number when it is a non-negative safe integer (number or bigint), else undefined. */
function toNonNegativeInteger(value: unknown): number | undefined {
  if (typeof value === 'bigint') {
    return value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Checks that `value` is an agent id (a non-negative integer).
 * @throws {ArgumentError} when it is not.
 */
export function requireAgentId(component: TrackerComponent, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw trackerArgumentError(
    component,
    'agentId',
    `agentId is ${describeValue(value)}, not an agent id`,
    'Pass agent.id of an agent of the runtime the tracker watches',
  );
}

/**
 * Checks that `value` is an {@link AllocationTag}.
 * @throws {ArgumentError} when it is not.
 */
export function requireTag(value: unknown): AllocationTag {
  if (isAllocationTag(value)) return value;
  throw trackerArgumentError(
    'tags',
    'tag',
    `tag is ${describeValue(value)}, which is not a tag`,
    "Use 'read-only' or 'excluded'",
  );
}
