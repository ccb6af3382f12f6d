import type { KernelArguments, KernelDescriptor, KernelParameter } from '@kreplay/native';
import { describeValue, trackerArgumentError } from './errors.js';
import { requireCount } from './validate.js';

/**
 * How many bytes a pointer parameter reaches from its address, per its declared extent; `undefined`
 * when it declares none (it reaches to the end of its allocation).
 * @throws {ArgumentError} when the extent names an argument that is missing or not a non-negative
 * integer, or declares an element size that is not a positive integer.
 */
export function pointerExtentBytes(
  kernel: KernelDescriptor,
  parameter: KernelParameter,
  args: KernelArguments,
): number | undefined {
  const extent = parameter.extent;
  if (extent === undefined) return undefined;
  const of = `of the extent of "${parameter.name}" of kernel ${kernel.name}`;
  if ('constantBytes' in extent) {
    return requireCount('resolve-arguments', 'kernel', extent.constantBytes, `constantBytes ${of}`);
  }
  if ('bytesParameter' in extent) {
    return requireCount(
      'resolve-arguments',
      extent.bytesParameter,
      argumentOf(kernel, args, extent.bytesParameter, parameter.name),
      `argument "${extent.bytesParameter}" of kernel ${kernel.name} (the extent of "${parameter.name}")`,
    );
  }
  const count = requireCount(
    'resolve-arguments',
    extent.countParameter,
    argumentOf(kernel, args, extent.countParameter, parameter.name),
    `argument "${extent.countParameter}" of kernel ${kernel.name} (the extent of "${parameter.name}")`,
  );
  const elementBytes = extent.elementBytes;
  if (!Number.isSafeInteger(elementBytes) || elementBytes <= 0) {
    throw trackerArgumentError(
      'resolve-arguments',
      'kernel',
      `elementBytes ${of} is ${describeValue(elementBytes)}, not a positive integer`,
      'Fix the kernel descriptor: elementBytes is the size of one element in bytes',
    );
  }
  return count * elementBytes;
}

function argumentOf(
  kernel: KernelDescriptor,
  args: KernelArguments,
  name: string,
  pointerName: string,
): number | bigint | Uint8Array {
  const value = Object.hasOwn(args, name) ? args[name] : undefined;
  if (value === undefined) {
    throw trackerArgumentError(
      'resolve-arguments',
      name,
      `argument "${name}" of kernel ${kernel.name} is missing, and the extent of "${pointerName}" needs it`,
      `Pass every argument the kernel declares, including "${name}"`,
    );
  }
  if (value instanceof Uint8Array) {
    throw trackerArgumentError('resolve-arguments', name, `argument "${name}" of kernel ${kernel.name} is a Uint8Array, and the extent of "${pointerName}" needs a number`, 'Pass the size as a number or bigint');
  }
  return value;
}
