/**
 * Validation of a kernel launch against the kernel's declared parameters, and its packing for the
 * addon: one 64-bit word per parameter, in declared order (floats as their bits), or for a kernel
 * whose parameter is `bytes` the buffer itself; for a user kernel also its launch shape.
 * @internal
 */
import type { Allocation } from '../memory/allocation.js';
import { builtinKernelIds, builtinKernels } from './builtin-kernels.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { packKernelLaunchShape } from './kernel-launch-shape.js';
import type { RangeScope } from '../queue/packed-ranges.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { BuiltinKernels, KernelParameter, PointerExtent } from '../runtime/runtime-types.js';
import { userKernelOf } from './user-kernels.js';
import { argumentError, describeValue, liveRangeHolder, requireAddress, requireKnownKeys, requireLiveRange, requireObject } from '../errors/validate.js';

export type PackedKernelLaunch =
  | { readonly kind: 'builtin'; readonly kernel: number; readonly args: BigUint64Array }
  | { readonly kind: 'user'; readonly kernel: number; readonly shape: Uint32Array; readonly args: BigUint64Array; readonly buffer?: Uint8Array };

const noWords = new BigUint64Array(0);

/** The argument of a kernel's one `bytes` parameter, copied (later changes to the caller's array do not reach the launch). */
export function packParameterBuffer(component: string, kernelName: string, parameter: KernelParameter, args: unknown): Uint8Array {
  const values = requireObject(component, 'args', args);
  requireKnownKeys(component, 'args', values, [parameter.name]);
  const argument = `args.${parameter.name}`;
  const value = values[parameter.name];
  if (value === undefined) {
    throw argumentError(component, argument, `${argument} of kernel ${kernelName} is missing`, `Pass the ${parameter.size} parameter bytes as a Uint8Array`);
  }
  if (!(value instanceof Uint8Array)) {
    throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not a Uint8Array`, `Pass the ${parameter.size} parameter bytes as a Uint8Array`);
  }
  if (value.byteLength !== parameter.size) {
    throw argumentError(
      component,
      argument,
      `${argument} holds ${value.byteLength} bytes, but the bytes parameter ${parameter.name} of ${kernelName} has ${parameter.size}`,
      `Pass exactly ${parameter.size} bytes`,
    );
  }
  return value.slice();
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

function extentBytes(component: string, name: string, extent: PointerExtent, words: BigUint64Array, indexOf: ReadonlyMap<string, number>): number {
  const word = (parameter: string) => {
    const index = indexOf.get(parameter);
    return index === undefined ? 0n : words[index]!;
  };
  let bytes: bigint;
  if ('constantBytes' in extent) bytes = BigInt(extent.constantBytes);
  else if ('bytesParameter' in extent) bytes = word(extent.bytesParameter);
  else bytes = word(extent.countParameter) * BigInt(extent.elementBytes);
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw argumentError(component, `args.${name}`, `args.${name} reaches ${bytes} bytes, more than any allocation`, 'Pass sizes that fit the buffers');
  }
  return Number(bytes);
}

function unknownKernel(core: Pick<RuntimeCore, 'driver' | 'userKernels'>, name: unknown): Error {
  const { driver } = core;
  if (core.userKernels) {
    return argumentError(
      'kernel',
      'kernel',
      `kernel ${describeValue(name)} is neither a built-in kernel nor one loaded by this runtime's loadKernel()`,
      'Launch one of runtime.kernels, or a descriptor returned by runtime.loadKernel()',
    );
  }
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

/** Each parameter's position by name, and the names as a list, per parameter list (descriptors are frozen). */
const parameterIndexes = new WeakMap<readonly KernelParameter[], { readonly indexOf: ReadonlyMap<string, number>; readonly names: readonly string[] }>();

function indexesOf(parameters: readonly KernelParameter[]) {
  let indexes = parameterIndexes.get(parameters);
  if (indexes === undefined) {
    const names = parameters.map((parameter) => parameter.name);
    indexes = { indexOf: new Map(names.map((name, index) => [name, index])), names };
    if (Object.isFrozen(parameters)) parameterIndexes.set(parameters, indexes);
  }
  return indexes;
}

/** The word of one argument: a plainly valid whole number at once, anything else through the checks that name it. */
function argumentWord(component: string, kernelName: string, parameter: KernelParameter, value: unknown): bigint {
  const limit = parameter.type === 'u32' ? 0xffffffff : Number.MAX_SAFE_INTEGER;
  if (parameter.type !== 'f32' && parameter.type !== 'f64' && typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= limit) {
    return BigInt(value);
  }
  const argument = `args.${parameter.name}`;
  if (value === undefined) {
    throw argumentError(component, argument, `${argument} of kernel ${kernelName} is missing`, `Pass every declared parameter of ${kernelName}`);
  }
  if (parameter.type === 'pointer') return BigInt(requireAddress(component, argument, value));
  if (parameter.type === 'u32' || parameter.type === 'u64') return unsignedWord(component, argument, value, parameter.type === 'u32' ? 32 : 64);
  if (parameter.type === 'bytes') {
    // Declarations never put a bytes parameter beside others (kernel-parameters.ts); only they are packed in words.
    throw argumentError(component, argument, `${argument} is a bytes parameter beside other parameters`, 'Declare a bytes parameter as the only parameter');
  }
  return floatWord(component, argument, value, parameter.type);
}

/**
 * The argument words of `parameters` from `args`, with every pointer's extent checked against live
 * memory (a pointer without an extent must lie inside an allocation, or be 0).
 * @returns the words, and each pointer's allocation.
 */
function packArguments(scope: RangeScope, name: string, parameters: readonly KernelParameter[], args: unknown) {
  const { component } = scope;
  const values = requireObject(component, 'args', args);
  const { indexOf, names } = indexesOf(parameters);
  for (const key in values) {
    if (Object.hasOwn(values, key) && !indexOf.has(key)) requireKnownKeys(component, 'args', values, names);
  }
  const words = new BigUint64Array(parameters.length);
  for (let index = 0; index < parameters.length; index += 1) {
    const parameter = parameters[index]!;
    words[index] = argumentWord(component, name, parameter, values[parameter.name]);
  }
  if (name === 'scatterWrite' && words[indexOf.get('pageBytes')!] === 0n) {
    throw argumentError(component, 'args.pageBytes', 'args.pageBytes of scatterWrite is 0', 'Pass a page size of at least 1 byte');
  }
  const holders: { readonly name: string; readonly holder: Allocation }[] = [];
  for (let index = 0; index < parameters.length; index += 1) {
    const parameter = parameters[index]!;
    if (parameter.type !== 'pointer') continue;
    const bytes = parameter.extent ? extentBytes(component, parameter.name, parameter.extent, words, indexOf) : 0;
    if (bytes === 0 && words[index] === 0n) continue; // a null pointer the kernel does not dereference
    const value = values[parameter.name];
    const holder =
      liveRangeHolder(scope.memory, scope.agentId, value, bytes) ??
      requireLiveRange(component, `args.${parameter.name}`, scope.memory, scope.agentId, value, bytes);
    holders.push({ name: parameter.name, holder });
  }
  return { args: words, holders };
}

/**
 * @throws {UnsupportedError} when the kernel is not a built-in one and the driver runs no user kernels.
 * @throws {ArgumentError} for a kernel this runtime did not load, a missing or unexpected launch
 * shape, missing, unknown or mistyped arguments, pointers whose extent is not inside live memory
 * the queue's agent reaches, a user kernel's pointer into pageable host memory, or a scatterWrite
 * pageBytes of 0.
 */
export function packKernelLaunch(
  scope: RangeScope,
  core: Pick<RuntimeCore, 'driver' | 'userKernels'>,
  kernel: unknown,
  args: unknown,
  launch: unknown,
): PackedKernelLaunch {
  const { component } = scope;
  const name = requireObject(component, 'kernel', kernel)['name'];
  const user = userKernelOf(kernel);
  if (user !== undefined) {
    if (user.core !== core) {
      throw argumentError(component, 'kernel', `kernel ${describeValue(name)} was loaded by another runtime`, "Load it with this runtime's loadKernel()");
    }
    if (launch === undefined) {
      throw argumentError(component, 'launch', `user kernel ${describeValue(name)} needs a launch shape`, 'Pass launch: { grid: [x, y, z], block: [x, y, z] }');
    }
    const shape = packKernelLaunchShape(component, launch);
    const parameters = (kernel as { parameters: readonly KernelParameter[] }).parameters;
    if (parameters.length === 1 && parameters[0]!.type === 'bytes') {
      return { kind: 'user', kernel: user.id, shape, args: noWords, buffer: packParameterBuffer(component, name as string, parameters[0]!, args) };
    }
    const packed = packArguments(scope, name as string, parameters, args);
    const pageable = packed.holders.find(({ holder }) => holder.kind === 'host-pageable');
    if (pageable) {
      throw argumentError(
        component,
        `args.${pageable.name}`,
        `args.${pageable.name} points into a pageable host buffer, which the GPU cannot reach`,
        'Use device memory or a pinned host buffer (allocateHost with pinned: true)',
      );
    }
    return { kind: 'user', kernel: user.id, shape, args: packed.args };
  }
  const id = typeof name === 'string' ? builtinKernelIds.get(name) : undefined;
  if (id === undefined) throw unknownKernel(core, name);
  if (launch !== undefined) {
    throw argumentError(component, 'launch', `built-in kernel ${name} chooses its own grid`, 'Omit launch for built-in kernels');
  }
  const parameters: readonly KernelParameter[] = builtinKernels[name as keyof BuiltinKernels].parameters;
  return { kind: 'builtin', kernel: id, args: packArguments(scope, name as string, parameters, args).args };
}
