/**
 * Validates copy segments and memory ranges and packs them into one Float64Array, so an enqueue is
 * one native call whatever its length.
 * @internal
 */
import type { LiveMemoryLookup } from '../errors/validate.js';
import { MAXIMUM_PAGE_COUNT, argumentError, liveRangeHolder, requireArray, requireLiveRange, requireObject } from '../errors/validate.js';

/** Where a queue's ranges must lie. */
export interface RangeScope {
  readonly component: string;
  readonly memory: LiveMemoryLookup;
  readonly agentId: number;
}

/**
 * `[source, destination, bytes, ...]` of a plan whose every range lies in live memory the agent reaches.
 * @throws {ArgumentError} for a plan that is not an array of segments, or a segment outside live memory.
 */
export function packSegments(scope: RangeScope, argument: string, plan: unknown): Float64Array {
  const segments = requireArray(scope.component, argument, plan);
  const packed = new Float64Array(segments.length * 3);
  for (let index = 0; index < segments.length; index += 1) {
    const item = segments[index];
    const segment = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : requireObject(scope.component, `${argument}[${index}]`, item);
    const { source, destination, bytes } = segment;
    if (liveRangeHolder(scope.memory, scope.agentId, source, bytes) === undefined) {
      requireLiveRange(scope.component, `${argument}[${index}] source`, scope.memory, scope.agentId, source, bytes);
    }
    if (liveRangeHolder(scope.memory, scope.agentId, destination, bytes) === undefined) {
      requireLiveRange(scope.component, `${argument}[${index}] destination`, scope.memory, scope.agentId, destination, bytes);
    }
    packed[3 * index] = source as number;
    packed[3 * index + 1] = destination as number;
    packed[3 * index + 2] = bytes as number;
  }
  return packed;
}

/**
 * `[address, bytes, ...]` of ranges in live memory the agent reaches.
 * @throws {ArgumentError} for ranges that are not an array of ranges, or a range outside live memory.
 */
export function packRanges(scope: RangeScope, argument: string, ranges: unknown): Float64Array {
  const list = requireArray(scope.component, argument, ranges);
  const packed = new Float64Array(list.length * 2);
  for (let index = 0; index < list.length; index += 1) {
    const item = list[index];
    const range = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : requireObject(scope.component, `${argument}[${index}]`, item);
    if (liveRangeHolder(scope.memory, scope.agentId, range['address'], range['bytes']) === undefined) {
      requireLiveRange(scope.component, `${argument}[${index}]`, scope.memory, scope.agentId, range['address'], range['bytes']);
    }
    packed[2 * index] = range['address'] as number;
    packed[2 * index + 1] = range['bytes'] as number;
  }
  return packed;
}

/**
 * How many pages packed spans make, each contributing ceil(bytes / pageBytes) (`stride` numbers per
 * span, bytes last).
 * @throws {ArgumentError} when there are more than 2^32 - 1 pages (page indices are 32-bit).
 */
export function countPages(scope: RangeScope, argument: string, packed: Float64Array, stride: number, pageBytes: number): number {
  let pages = 0;
  for (let index = stride - 1; index < packed.length; index += stride) pages += Math.ceil(packed[index]! / pageBytes);
  if (pages > MAXIMUM_PAGE_COUNT) {
    throw argumentError(
      scope.component,
      argument,
      `${argument} make ${pages} pages of ${pageBytes} bytes, more than ${MAXIMUM_PAGE_COUNT}`,
      'Use a larger page size or split the work',
    );
  }
  return pages;
}
