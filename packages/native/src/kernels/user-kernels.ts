/**
 * User kernels: loading a module file or image on GPU drivers (runtime.loadKernel), the descriptors
 * it returns, each tied to the runtime that loaded it, and the registers the driver gave each
 * (runtime.kernelRegisters).
 * @internal
 */
import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { readKernelModuleFile } from './kernel-module-file.js';
import { moduleParameterLayouts } from './kernel-parameter-layout.js';
import { parameterBytes, requireKernelParameters, requireParametersCoverModule } from './kernel-parameters.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { KernelDescriptor } from '../runtime/runtime-types.js';
import { argumentError, describeValue, requireBoolean, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';

const component = 'kernel';

/** A loaded user kernel: the runtime it belongs to and its id in the addon. */
export interface UserKernel {
  readonly core: RuntimeCore;
  readonly id: number;
}

const userKernels = new WeakMap<KernelDescriptor, UserKernel>();

/** The user kernel behind a descriptor from loadKernel, if it is one. */
export function userKernelOf(kernel: unknown): UserKernel | undefined {
  return typeof kernel === 'object' && kernel !== null ? userKernels.get(kernel as KernelDescriptor) : undefined;
}

function requireName(value: unknown, argument: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  throw argumentError(component, argument, `${argument} is ${describeValue(value)}, not a non-empty string`, `Pass the ${argument === 'options.path' ? 'module file' : 'kernel name'}`);
}

/** Checks that the options name exactly one module: a path or a non-empty image. */
function requireModule(options: Record<string, unknown>): void {
  const hasPath = options['path'] !== undefined;
  const hasImage = options['image'] !== undefined;
  if (hasPath === hasImage) {
    throw argumentError(
      component,
      'options',
      hasPath ? 'options has both path and image' : 'options has neither path nor image',
      'Pass exactly one of path (a module file) and image (the module as a Uint8Array)',
    );
  }
  if (hasImage) {
    const image = options['image'];
    if (!(image instanceof Uint8Array) || image.byteLength === 0) {
      throw argumentError(component, 'options.image', `options.image is ${describeValue(image)}, not a non-empty Uint8Array`, 'Pass the module (PTX text, a cubin or a fatbin) as a Uint8Array');
    }
  } else {
    requireName(options['path'], 'options.path');
  }
}

/** The module of checked options: the file's bytes, or a copy of the image; and how to name it in messages. */
async function moduleImage(options: Record<string, unknown>): Promise<{ readonly image: Uint8Array; readonly source: string }> {
  const given = options['image'];
  if (given instanceof Uint8Array) return { image: given.slice(), source: `a module image of ${given.byteLength} bytes` };
  const path = options['path'] as string;
  const read = await readKernelModuleFile(path);
  if ('problem' in read) throw argumentError(component, 'options.path', `the module file ${path} ${read.problem}`, 'Pass the path of a .ptx, .cubin or .fatbin file');
  return { image: read.bytes, source: path };
}

/**
 * Loads a kernel from a module file or image on every agent of the runtime.
 * @throws {ArgumentError} for invalid options, a file that cannot be read, or parameters that pass
 *   less than the module declares for the kernel (a launch would make the driver read past them).
 * @throws {UnsupportedError} when the driver runs no user kernels (the host driver).
 * @throws {DriverError} when the driver cannot load the module or finds no such kernel in it.
 */
export async function loadUserKernel(core: RuntimeCore, value: unknown): Promise<KernelDescriptor> {
  const options = requireObject(component, 'options', value);
  requireKnownKeys(component, 'options', options, ['path', 'image', 'name', 'parameters', 'deterministic']);
  requireModule(options);
  const name = requireName(options['name'], 'options.name');
  const parameters = requireKernelParameters(component, options['parameters']);
  const deterministic = options['deterministic'] === undefined ? true : requireBoolean(component, 'options.deterministic', options['deterministic']);
  if (!core.userKernels) {
    throw new UnsupportedError({
      packageName: 'native',
      component,
      driver: core.driver,
      feature: 'user kernels',
      message: nativeMessage(component, `the ${core.driver} driver runs no user kernels (loadKernel of ${name})`, 'Open the cuda driver to run kernels from a module file, or use the built-in kernels of runtime.kernels'),
    });
  }
  const { image, source } = await moduleImage(options);
  const layout = moduleParameterLayouts(image).get(name);
  if (layout !== undefined) requireParametersCoverModule(component, name, parameters, layout);
  const loaded = await core.native.loadKernel(image, name, parameterBytes(parameters));
  if (typeof loaded !== 'number') {
    throw new DriverError({
      packageName: 'native',
      component,
      driver: core.driver,
      agentId: null,
      operation: 'load-kernel',
      code: loaded.code,
      message: nativeMessage(component, `kernel ${name} of ${source} could not be loaded: ${loaded.message}`, 'Check that the file is PTX, a cubin or a fatbin for this GPU, and that it has an extern "C" kernel of that name'),
    });
  }
  const descriptor: KernelDescriptor = Object.freeze({ name, parameters, deterministic });
  userKernels.set(descriptor, { core, id: loaded });
  return descriptor;
}

/**
 * The user kernel behind `kernel`, loaded by the runtime of `core`.
 * @throws {ArgumentError} for anything else (a built-in kernel, another runtime's kernel).
 */
export function requireUserKernel(core: RuntimeCore, kernel: unknown): UserKernel {
  const user = userKernelOf(kernel);
  if (user !== undefined && user.core === core) return user;
  throw argumentError(component, 'kernel', `kernel ${describeValue((kernel as { name?: unknown } | null)?.name)} was not loaded by this runtime's loadKernel()`, "Pass a descriptor returned by this runtime's loadKernel()");
}

/** Runtime.kernelRegisters: the driver's count of registers per thread of a loaded kernel on one agent. */
export function loadedKernelRegisters(core: RuntimeCore, agentCount: number, kernel: unknown, agentId: unknown): number | null {
  const user = requireUserKernel(core, kernel);
  const agent = requireInteger(component, 'agentId', agentId, 0, agentCount - 1);
  const registers = core.native.kernelRegisters(user.id, agent);
  if (registers === null || typeof registers === 'number') return registers;
  throw new DriverError({
    packageName: 'native',
    component,
    driver: core.driver,
    agentId: agent,
    operation: 'kernel-registers',
    code: registers.code,
    message: nativeMessage(component, `the registers of kernel ${(kernel as KernelDescriptor).name} could not be read: ${registers.message}`, 'Load the kernel again with runtime.loadKernel()'),
  });
}
