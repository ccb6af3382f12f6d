import type { KernelArguments, KernelDescriptor, KernelParameter } from '@kreplay/native';
import { describeValue, trackerArgumentError } from './errors.js';

/** A word of a raw parameter buffer that could be a pointer: its byte offset and its value. */
export interface ParameterBufferWord {
  readonly offset: number;
  readonly address: number;
}

/**
 * The argument of a `bytes` parameter, checked: a Uint8Array of the declared size.
 * @throws {ArgumentError} when it is missing, not a Uint8Array, or of another length than `size`.
 */
export function bytesArgument(kernel: KernelDescriptor, args: KernelArguments, parameter: KernelParameter): Uint8Array {
  const value = Object.hasOwn(args, parameter.name) ? args[parameter.name] : undefined;
  const label = `bytes argument "${parameter.name}" of kernel ${kernel.name}`;
  if (value === undefined) {
    throw trackerArgumentError(
      'resolve-arguments',
      parameter.name,
      `${label} is missing`,
      `Pass every argument the kernel declares, including "${parameter.name}" (a Uint8Array of its raw bytes)`,
    );
  }
  if (!(value instanceof Uint8Array)) {
    throw trackerArgumentError(
      'resolve-arguments',
      parameter.name,
      `${label} is ${describeValue(value)}, not a Uint8Array`,
      'Pass the raw parameter bytes as a Uint8Array',
    );
  }
  if (parameter.size !== undefined && value.byteLength !== parameter.size) {
    throw trackerArgumentError(
      'resolve-arguments',
      parameter.name,
      `${label} holds ${value.byteLength} bytes, but the parameter is declared with size ${parameter.size}`,
      `Pass exactly ${parameter.size} bytes`,
    );
  }
  return value;
}

/**
 * The 8-byte-aligned little-endian 64-bit words of a parameter buffer that are non-zero addresses
 * (at most 2^53 - 1), in order. Whether one is a pointer is for the caller to decide: a word that
 * lands in no tracked allocation is a scalar. A short tail (fewer than 8 bytes) holds no pointer.
 */
export function addressWords(buffer: Uint8Array): ParameterBufferWord[] {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const words: ParameterBufferWord[] = [];
  for (let offset = 0; offset + 8 <= buffer.byteLength; offset += 8) {
    const low = view.getUint32(offset, true);
    const high = view.getUint32(offset + 4, true);
    if (high > 0x1fffff || (low === 0 && high === 0)) continue;
    words.push({ offset, address: high * 2 ** 32 + low });
  }
  return words;
}
