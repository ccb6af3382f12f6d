/**
 * Validation of a kernel launch against the kernel's declared parameters, and its packing for the
 * addon: one 64-bit word per parameter, in declared order (floats as their bits).
 * @internal
 */
import { builtinKernelIds, builtinKernels } from './builtin-kernels.js';
import { nativeMessage } from './errors/native-message.js';
import { UnsupportedError } from './errors/unsupported-error.js';
import type { RangeScope } from './packed-ranges.js';
import type { BuiltinKernels, DriverName, KernelParameter, PointerExtent } from './runtime-types.js';
import { argumentError, describeValue, requireAddress, requireKnownKeys, requireLiveRange, requireObject } from './validate.js';

export interface PackedKernelLaunch {
  readonly kernel: number;
  readonly args: BigUint64Array;
}

const floatBits = new DataView(new ArrayBuffer(8));

function unsignedWord(component: string, argument: string, value: unknown, bits: 32 | 64): bigint {
  const limit = bits === 32 ? 0xffffffffn : 0xffffffffffffffffn;
  if (typeof value === 'bigint' && value >= 0n && value <= limit) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && BigInt(value) <= limit) return BigInt(value);
  throw argumentError(
    component,
    argument,
    `${argument} is ${describeValue(value)}, not a u${bits}`,
    `Pass a whole number from 0 to 2^${bits} - 1 (a number, or a bigint)`,
  );
}

function floatWord(component: string, argument: string, value: unknown, type: 'f32' | 'f64'): bigint {
  if (typeof value !== 'number') {
    throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not a number`, `Pass a number for this ${type}`);
  }
  if (type === 'f64') {
    floatBits.setFloat64(0, value, true);
    return floatBits.getBigUint64(0, true);
  }
  floatBits.setFloat32(0, value, true);
  return BigInt(floatBits.getUint32(0, true));
}

function extentBytes(component: string, name: string, extent: PointerExtent, words: Map<string, bigint>): number {
  let bytes: bigint;
  if ('constantBytes' in extent) bytes = BigInt(extent.constantBytes);
  else if ('bytesParameter' in extent) bytes = words.get(extent.bytesParameter) ?? 0n;
  else bytes = (words.get(extent.countParameter) ?? 0n) * BigInt(extent.elementBytes);
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw argumentError(component, `args.${name}`, `args.${name} reaches ${bytes} bytes, more than any allocation`, 'Pass sizes that fit the buffers');
  }
  return Number(bytes);
}

function unsupportedKernel(driver: DriverName, name: unknown): UnsupportedError {
  return new UnsupportedError({
    packageName: 'native',
    component: 'kernel',
    driver,
    feature: 'user kernels',
    message: nativeMessage(
      'kernel',
      `kernel ${describeValue(name)} is not a built-in kernel, and the ${driver} driver runs no user kernels`,
      'Launch one of runtime.kernels (fill, scatterWrite, triad, stencil, accumulate)',
    ),
  });
}

/**
 * @throws {UnsupportedError} when the kernel is not a built-in one.
 * @throws {ArgumentError} for missing, unknown or mistyped arguments, pointers whose extent is not
 * inside live memory the queue's agent reaches, or a scatterWrite pageBytes of 0.
 */
export function packKernelLaunch(scope: RangeScope, driver: DriverName, kernel: unknown, args: unknown): PackedKernelLaunch {
  const { component } = scope;
  const name = requireObject(component, 'kernel', kernel)['name'];
  const id = typeof name === 'string' ? builtinKernelIds.get(name) : undefined;
  if (id === undefined) throw unsupportedKernel(driver, name);
  const parameters: readonly KernelParameter[] = builtinKernels[name as keyof BuiltinKernels].parameters;
  const values = requireObject(component, 'args', args);
  requireKnownKeys(component, 'args', values, parameters.map((parameter) => parameter.name));

  const words = new Map<string, bigint>();
  for (const parameter of parameters) {
    const argument = `args.${parameter.name}`;
    const value = values[parameter.name];
    if (value === undefined) {
      throw argumentError(component, argument, `${argument} of kernel ${name} is missing`, `Pass every declared parameter of ${name}`);
    }
    if (parameter.type === 'pointer') words.set(parameter.name, BigInt(requireAddress(component, argument, value)));
    else if (parameter.type === 'u32' || parameter.type === 'u64') {
      words.set(parameter.name, unsignedWord(component, argument, value, parameter.type === 'u32' ? 32 : 64));
    } else words.set(parameter.name, floatWord(component, argument, value, parameter.type));
  }
  if (name === 'scatterWrite' && words.get('pageBytes') === 0n) {
    throw argumentError(component, 'args.pageBytes', 'args.pageBytes of scatterWrite is 0', 'Pass a page size of at least 1 byte');
  }
  for (const parameter of parameters) {
    if (parameter.type !== 'pointer') continue;
    const bytes = parameter.extent ? extentBytes(component, parameter.name, parameter.extent, words) : 0;
    if (bytes === 0 && words.get(parameter.name) === 0n) continue; // a null pointer the kernel does not dereference
    requireLiveRange(component, `args.${parameter.name}`, scope.memory, scope.agentId, values[parameter.name], bytes);
  }
  return { kernel: id, args: BigUint64Array.from(parameters, (parameter) => words.get(parameter.name)!) };
}
