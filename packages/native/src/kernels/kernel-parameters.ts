/**
 * Validation of the parameters a user kernel declares (runtime.loadKernel): names, types, for
 * pointers access, indirection and an extent that refers to an integer parameter, and for a `bytes`
 * parameter its size (it is then the kernel's only parameter).
 * @internal
 */
import { launchBufferProblem, type KernelParameterLayout } from './kernel-parameter-layout.js';
import type { Access, KernelParameter, ParameterType, PointerExtent } from '../runtime/runtime-types.js';
import { argumentError, describeValue, requireArray, requireBoolean, requireChoice, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';

const parameterTypes: readonly ParameterType[] = ['pointer', 'u32', 'u64', 'f32', 'f64', 'bytes'];

/** The most bytes a `bytes` parameter holds: CUDA's parameter space of 32764 bytes. */
export const MAXIMUM_PARAMETER_BUFFER_BYTES = 32764;
const accesses: readonly Access[] = ['read', 'write', 'readwrite', 'unknown'];

function requireExtent(component: string, argument: string, value: unknown, integers: ReadonlySet<string>): PointerExtent {
  const extent = requireObject(component, argument, value);
  const keys = Object.keys(extent).sort().join(',');
  const requireIntegerParameter = (key: string): string => {
    const name = extent[key];
    if (typeof name === 'string' && integers.has(name)) return name;
    throw argumentError(
      component,
      `${argument}.${key}`,
      `${argument}.${key} is ${describeValue(name)}, not the name of a u32 or u64 parameter of the kernel`,
      'Name an integer parameter that holds the size',
    );
  };
  if (keys === 'bytesParameter') return Object.freeze({ bytesParameter: requireIntegerParameter('bytesParameter') });
  if (keys === 'countParameter,elementBytes') {
    return Object.freeze({
      countParameter: requireIntegerParameter('countParameter'),
      elementBytes: requireInteger(component, `${argument}.elementBytes`, extent['elementBytes'], 1, 2 ** 32),
    });
  }
  if (keys === 'constantBytes') {
    return Object.freeze({ constantBytes: requireInteger(component, `${argument}.constantBytes`, extent['constantBytes'], 0, Number.MAX_SAFE_INTEGER) });
  }
  throw argumentError(
    component,
    argument,
    `${argument} has the keys ${keys || 'none'}`,
    'Use { bytesParameter }, { countParameter, elementBytes } or { constantBytes }',
  );
}

function requireBytesParameter(component: string, argument: string, name: string, parameter: Record<string, unknown>, count: number): KernelParameter {
  for (const key of ['access', 'extent']) {
    if (parameter[key] !== undefined) {
      throw argumentError(component, `${argument}.${key}`, `${argument} is a bytes parameter, which has no ${key}`, 'Give a bytes parameter only a size (and indirect)');
    }
  }
  if (count !== 1) {
    throw argumentError(
      component,
      argument,
      `${argument} (${name}) is a bytes parameter among ${count} parameters`,
      'Declare a bytes parameter as the only parameter: it is the whole parameter buffer, with the other parameters inside it',
    );
  }
  const size = requireInteger(component, `${argument}.size`, parameter['size'], 1, MAXIMUM_PARAMETER_BUFFER_BYTES);
  const indirect = parameter['indirect'] === undefined ? undefined : requireBoolean(component, `${argument}.indirect`, parameter['indirect']);
  return Object.freeze({ name, type: 'bytes' as const, size, ...(indirect === undefined ? {} : { indirect }) });
}

/**
 * The parameters, checked and frozen.
 * @throws {ArgumentError} for a non-array, a duplicate or empty name, an unknown type, pointer
 * options on a scalar, an extent that does not name an integer parameter, or a `bytes` parameter
 * without a size of 1 to 32764 or beside other parameters.
 */
export function requireKernelParameters(component: string, value: unknown): readonly KernelParameter[] {
  const list = requireArray(component, 'options.parameters', value);
  const names = new Set<string>();
  // Extents may name integer parameters declared after the pointer (as the built-in kernels do).
  const integers = new Set<string>();
  for (const item of list) {
    const { name, type } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof name === 'string' && (type === 'u32' || type === 'u64')) integers.add(name);
  }
  const parameters = list.map((item, index) => {
    const argument = `options.parameters[${index}]`;
    const parameter = requireObject(component, argument, item);
    requireKnownKeys(component, argument, parameter, ['name', 'type', 'size', 'access', 'indirect', 'extent']);
    const name = parameter['name'];
    if (typeof name !== 'string' || name.length === 0 || names.has(name)) {
      throw argumentError(component, `${argument}.name`, `${argument}.name is ${describeValue(name)}, not a new non-empty name`, 'Give every parameter its own name');
    }
    names.add(name);
    const type = requireChoice(component, `${argument}.type`, parameter['type'], parameterTypes);
    if (type === 'bytes') return requireBytesParameter(component, argument, name, parameter, list.length);
    if (parameter['size'] !== undefined) {
      throw argumentError(component, `${argument}.size`, `${argument} is a ${type}, which has no size`, 'Give a size to bytes parameters only');
    }
    if (type !== 'pointer') {
      for (const key of ['access', 'indirect', 'extent']) {
        if (parameter[key] !== undefined) {
          throw argumentError(component, `${argument}.${key}`, `${argument} is a ${type}, which has no ${key}`, 'Give access, indirect and extent to pointers only');
        }
      }
      return Object.freeze({ name, type });
    }
    const access = parameter['access'] === undefined ? undefined : requireChoice(component, `${argument}.access`, parameter['access'], accesses);
    const indirect = parameter['indirect'] === undefined ? undefined : requireBoolean(component, `${argument}.indirect`, parameter['indirect']);
    const extent = parameter['extent'] === undefined ? undefined : requireExtent(component, `${argument}.extent`, parameter['extent'], integers);
    return Object.freeze({
      name,
      type,
      ...(access === undefined ? {} : { access }),
      ...(indirect === undefined ? {} : { indirect }),
      ...(extent === undefined ? {} : { extent }),
    }) as KernelParameter;
  });
  return Object.freeze(parameters);
}

/**
 * The size of each parameter in the kernel's parameter buffer: 8 for pointers, u64 and f64, 4 for
 * u32 and f32, 0 for a `bytes` parameter (a buffer of its own size).
 */
export function parameterBytes(parameters: readonly KernelParameter[]): Uint8Array {
  return Uint8Array.from(parameters, (parameter) => (parameter.type === 'bytes' ? 0 : parameter.type === 'u32' || parameter.type === 'f32' ? 4 : 8));
}

/**
 * Checks that a launch of these declared parameters passes every parameter the kernel's module
 * declares (its cubin's metadata or its PTX): a `bytes` parameter as large as the parameters span,
 * or else one declared parameter, a 64-bit word, for each of the module's, none of them larger.
 * Less would make the driver read past what the launch passes; a longer `bytes` parameter the driver
 * refuses at launch.
 * @throws {ArgumentError} when the declaration passes less than the module declares.
 */
export function requireParametersCoverModule(component: string, name: string, parameters: readonly KernelParameter[], layout: KernelParameterLayout): void {
  const whole = `one bytes parameter of the whole ${layout.parameterBufferBytes}-byte parameter buffer`;
  if (parameters.length === 1 && parameters[0]!.type === 'bytes') {
    const short = launchBufferProblem(name, parameters[0]!.size!, layout);
    if (short) throw argumentError(component, 'options.parameters[0].size', `the bytes parameter ${parameters[0]!.name} ${short}`, `Declare ${whole}`);
    return;
  }
  const declared = layout.parameters.length;
  if (parameters.length < declared) {
    throw argumentError(
      component,
      'options.parameters',
      `options.parameters declares ${parameters.length} parameter${parameters.length === 1 ? '' : 's'} of kernel ${name}, but its module declares ${declared} (${layout.parameterBufferBytes} bytes)`,
      `Declare all ${declared} in order, or ${whole}`,
    );
  }
  const wide = layout.parameters.find((parameter) => parameter.size > 8);
  if (wide !== undefined) {
    throw argumentError(
      component,
      `options.parameters[${wide.index}]`,
      `parameter ${wide.index} of kernel ${name} is ${wide.size} bytes in its module, more than the 8-byte word options.parameters[${wide.index}] passes`,
      `Declare ${whole}`,
    );
  }
}
