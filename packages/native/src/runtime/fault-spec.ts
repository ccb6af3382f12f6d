/**
 * Validation of {@link FaultSpec} and its packing for the addon.
 * @internal
 */
import type { FaultOperation, FaultSpec } from './runtime-types.js';
import { requireChoice, requireInteger, requireKnownKeys, requireObject, argumentError, describeValue } from '../errors/validate.js';

const operations: readonly FaultOperation[] = ['copy', 'hash', 'conditional-copy', 'kernel', 'allocate', 'any'];

/** The addon's number of each operation (OperationKind in core/types.hpp). */
const operationNumbers: Readonly<Record<FaultOperation, number>> = {
  copy: 0,
  hash: 1,
  'conditional-copy': 2,
  kernel: 3,
  allocate: 4,
  any: 5,
};

/** `[operation, after, count, agentId (-1: any), delayMilliseconds (-1: fail)]`. */
export type PackedFault = [number, number, number, number, number];

/**
 * @throws {ArgumentError} for an unknown operation, a negative or fractional `after`, a `count`
 * below 1, an `agentId` that is not an agent of the runtime, or a negative or non-finite delay.
 */
export function packFault(fault: unknown, agentCount: number): PackedFault {
  const spec = requireObject('faults', 'fault', fault) as Partial<FaultSpec>;
  requireKnownKeys('faults', 'fault', spec, ['operation', 'after', 'count', 'agentId', 'delayMilliseconds']);
  const operation = requireChoice('faults', 'fault.operation', spec.operation, operations);
  const after = requireInteger('faults', 'fault.after', spec.after ?? 0, 0, Number.MAX_SAFE_INTEGER);
  const count = requireInteger('faults', 'fault.count', spec.count ?? 1, 1, Number.MAX_SAFE_INTEGER);
  const agentId = spec.agentId === undefined ? -1 : requireInteger('faults', 'fault.agentId', spec.agentId, 0, agentCount - 1);
  let delay = -1;
  if (spec.delayMilliseconds !== undefined) {
    const value = spec.delayMilliseconds;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 3_600_000) {
      throw argumentError(
        'faults',
        'fault.delayMilliseconds',
        `fault.delayMilliseconds is ${describeValue(value)}, not a delay`,
        'Pass a number of milliseconds from 0 to 3600000',
      );
    }
    delay = value;
  }
  return [operationNumbers[operation], after, count, agentId, delay];
}
