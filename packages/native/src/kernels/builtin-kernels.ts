import type { BuiltinKernels, KernelDescriptor, KernelParameter } from '../runtime/runtime-types.js';

function pointer(name: string, access: KernelParameter['access'], extent: KernelParameter['extent']): KernelParameter {
  return Object.freeze({ name, type: 'pointer', access, extent: Object.freeze(extent) }) as KernelParameter;
}

function scalar(name: string, type: 'u32' | 'u64' | 'f32' | 'f64'): KernelParameter {
  return Object.freeze({ name, type });
}

function kernel(name: string, deterministic: boolean, parameters: KernelParameter[]): KernelDescriptor {
  return Object.freeze({ name, deterministic, parameters: Object.freeze(parameters) });
}

const float32Elements = (countParameter: string) => ({ countParameter, elementBytes: 4 });

/**
 * The descriptors of the built-in kernels (semantics on {@link BuiltinKernels}); every runtime's
 * `kernels` is this object.
 * @internal
 */
export const builtinKernels: BuiltinKernels = Object.freeze({
  fill: kernel('fill', true, [
    pointer('destination', 'write', { bytesParameter: 'bytes' }),
    scalar('bytes', 'u64'),
    scalar('value', 'u32'),
  ]),
  scatterWrite: kernel('scatterWrite', true, [
    pointer('buffer', 'readwrite', { bytesParameter: 'bytes' }),
    scalar('bytes', 'u64'),
    scalar('pageBytes', 'u64'),
    scalar('fraction', 'f64'),
    scalar('seed', 'u64'),
    pointer('source', 'read', { bytesParameter: 'sourceBytes' }),
    scalar('sourceBytes', 'u64'),
  ]),
  triad: kernel('triad', true, [
    pointer('a', 'write', float32Elements('count')),
    pointer('b', 'read', float32Elements('count')),
    pointer('c', 'read', float32Elements('count')),
    scalar('scalar', 'f32'),
    scalar('count', 'u64'),
  ]),
  stencil: kernel('stencil', true, [pointer('buffer', 'readwrite', float32Elements('count')), scalar('count', 'u64')]),
  accumulate: kernel('accumulate', false, [
    pointer('input', 'read', float32Elements('count')),
    scalar('count', 'u64'),
    pointer('output', 'write', { constantBytes: 4 }),
  ]),
});

/**
 * The addon's number of each built-in kernel (the order of `BuiltinKernel` in
 * core/kernels/builtin-kernels.hpp).
 * @internal
 */
export const builtinKernelIds: ReadonlyMap<string, number> = new Map([
  ['fill', 0],
  ['scatterWrite', 1],
  ['triad', 2],
  ['stencil', 3],
  ['accumulate', 4],
]);
