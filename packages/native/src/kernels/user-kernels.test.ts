import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { packParameterBuffer } from './kernel-launch.js';
import { packKernelLaunchShape } from './kernel-launch-shape.js';
import { parameterBytes, requireKernelParameters } from './kernel-parameters.js';
import { openRuntime } from '../runtime/open-runtime.js';
import type { Runtime } from '../runtime/runtime-objects.js';

const scale = {
  path: 'test/gpu/kernels/scale-floats.ptx',
  name: 'kreplay_test_scale_floats',
  parameters: [
    { name: 'data', type: 'pointer', access: 'readwrite', extent: { countParameter: 'count', elementBytes: 4 } },
    { name: 'count', type: 'u32' },
    { name: 'factor', type: 'f32' },
  ],
} as const;

describe('user kernels on the host driver', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 16 << 20, threads: 2 } });
  });
  afterAll(() => runtime.dispose());

  it('refuses loadKernel with UnsupportedError naming the driver and the feature', async () => {
    const error = await runtime.loadKernel({ ...scale, parameters: [...scale.parameters] }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({ driver: 'host', feature: 'user kernels' });
    expect((error as Error).message).toMatch(/^\[native\] \[kernel\] the host driver runs no user kernels/);
  });

  it('checks the module (exactly one of path and a non-empty image) before the driver refuses', async () => {
    const options = { name: scale.name, parameters: [...scale.parameters] };
    const refusal = async (module: object) => (await runtime.loadKernel({ ...options, ...module } as never).catch((error: unknown) => error)) as ArgumentError;
    expect(await refusal({})).toBeInstanceOf(ArgumentError);
    expect((await refusal({ path: scale.path, image: new Uint8Array(4) })).message).toMatch(/both path and image/);
    expect((await refusal({ image: new Uint8Array(0) })).argument).toBe('options.image');
    expect((await refusal({ image: 'ptx' })).argument).toBe('options.image');
    await expect(runtime.loadKernel({ ...options, image: new Uint8Array(4) })).rejects.toBeInstanceOf(UnsupportedError);
  });

  it('checks the options before anything else', async () => {
    await expect(runtime.loadKernel({ ...scale, parameters: [...scale.parameters], path: '' })).rejects.toBeInstanceOf(ArgumentError);
    await expect(runtime.loadKernel({ ...scale, parameters: [{ name: 'x', type: 'u16' as never }] })).rejects.toBeInstanceOf(ArgumentError);
    await expect(runtime.loadKernel({ ...scale, parameters: [...scale.parameters], extra: 1 } as never)).rejects.toBeInstanceOf(ArgumentError);
  });

  it('refuses a launch shape for a built-in kernel', () => {
    const buffer = runtime.agents[0]!.allocate(64);
    const queue = runtime.agents[0]!.createQueue();
    expect(() => queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 64, value: 0 }, { grid: [1, 1, 1], block: [32, 1, 1] })).toThrow(
      ArgumentError,
    );
    expect(() => queue.enqueueKernel({ name: 'mine', parameters: [], deterministic: true }, {})).toThrow(UnsupportedError);
    buffer.free();
    return queue.dispose();
  });
});

describe('kernel parameters of loadKernel', () => {
  it('accepts pointers with each kind of extent, naming integer parameters declared later', () => {
    const parameters = requireKernelParameters('kernel', [
      { name: 'a', type: 'pointer', access: 'read', extent: { bytesParameter: 'bytes' } },
      { name: 'b', type: 'pointer', indirect: true },
      { name: 'c', type: 'pointer', access: 'write', extent: { constantBytes: 16 } },
      { name: 'd', type: 'pointer', extent: { countParameter: 'count', elementBytes: 8 } },
      { name: 'bytes', type: 'u64' },
      { name: 'count', type: 'u32' },
      { name: 'x', type: 'f32' },
      { name: 'y', type: 'f64' },
    ]);
    expect(parameters.map((parameter) => parameter.name)).toEqual(['a', 'b', 'c', 'd', 'bytes', 'count', 'x', 'y']);
    expect(Object.isFrozen(parameters[0])).toBe(true);
    expect([...parameterBytes(parameters)]).toEqual([8, 8, 8, 8, 8, 4, 4, 8]);
  });

  it('accepts one bytes parameter with a size, and indirect, packed as a 0-size word', () => {
    const parameters = requireKernelParameters('kernel', [{ name: 'parameters', type: 'bytes', size: 24, indirect: true }]);
    expect(parameters).toEqual([{ name: 'parameters', type: 'bytes', size: 24, indirect: true }]);
    expect([...parameterBytes(parameters)]).toEqual([0]);
    expect(requireKernelParameters('kernel', [{ name: 'all', type: 'bytes', size: 32764 }])[0]).toEqual({ name: 'all', type: 'bytes', size: 32764 });
  });

  it('refuses bytes parameters without a size of 1 to 32764, with pointer options, or beside others, naming the parameter', () => {
    const refusal = (parameters: unknown) => {
      try {
        requireKernelParameters('kernel', parameters);
      } catch (error) {
        expect(error).toBeInstanceOf(ArgumentError);
        return error as ArgumentError;
      }
      throw new Error('accepted');
    };
    expect(refusal([{ name: 'p', type: 'bytes' }]).argument).toBe('options.parameters[0].size');
    expect(refusal([{ name: 'p', type: 'bytes', size: 0 }]).argument).toBe('options.parameters[0].size');
    expect(refusal([{ name: 'p', type: 'bytes', size: 32765 }]).argument).toBe('options.parameters[0].size');
    expect(refusal([{ name: 'p', type: 'bytes', size: 8, access: 'read' }]).argument).toBe('options.parameters[0].access');
    expect(refusal([{ name: 'p', type: 'bytes', size: 8, extent: { constantBytes: 8 } }]).argument).toBe('options.parameters[0].extent');
    const mixed = refusal([{ name: 'n', type: 'u32' }, { name: 'p', type: 'bytes', size: 8 }]);
    expect(mixed.argument).toBe('options.parameters[1]');
    expect(mixed.message).toMatch(/only parameter/);
    expect(refusal([{ name: 'n', type: 'u32', size: 4 }]).argument).toBe('options.parameters[0].size');
  });

  it('refuses duplicate names, pointer options on scalars, and extents of no integer parameter', () => {
    const refuse = (parameters: unknown) => expect(() => requireKernelParameters('kernel', parameters)).toThrow(ArgumentError);
    refuse({});
    refuse([{ name: 'a', type: 'u32' }, { name: 'a', type: 'u64' }]);
    refuse([{ name: 'a', type: 'u32', access: 'read' }]);
    refuse([{ name: 'p', type: 'pointer', extent: { bytesParameter: 'missing' } }]);
    refuse([{ name: 'p', type: 'pointer', extent: { bytesParameter: 'f' } }, { name: 'f', type: 'f32' }]);
    refuse([{ name: 'p', type: 'pointer', extent: { countParameter: 'n' } }, { name: 'n', type: 'u32' }]);
    refuse([{ name: 'p', type: 'pointer', access: 'sometimes' }]);
  });
});

describe('launch shapes of user kernels', () => {
  it('packs grid, block and shared bytes', () => {
    expect([...packKernelLaunchShape('queue', { grid: [10, 2, 1], block: [256, 1, 1], sharedBytes: 1024 })]).toEqual([10, 2, 1, 256, 1, 1, 1024, 0, 0, 0]);
    expect([...packKernelLaunchShape('queue', { grid: [1, 1, 1], block: [32, 32, 1] })]).toEqual([1, 1, 1, 32, 32, 1, 0, 0, 0, 0]);
  });

  it('packs cluster dimensions after the shared bytes, and refuses invalid ones', () => {
    expect([...packKernelLaunchShape('queue', { grid: [8, 2, 1], block: [128, 1, 1], clusterDims: [4, 2, 1] })]).toEqual([8, 2, 1, 128, 1, 1, 0, 4, 2, 1]);
    const refuse = (clusterDims: unknown) => expect(() => packKernelLaunchShape('queue', { grid: [8, 1, 1], block: [1, 1, 1], clusterDims })).toThrow(/launch\.clusterDims/);
    refuse([0, 1, 1]);
    refuse([2, 1]);
    refuse([2, 1, 1.5]);
    refuse('2x1x1');
  });

  it('refuses shapes outside the limits', () => {
    const refuse = (launch: unknown) => expect(() => packKernelLaunchShape('queue', launch)).toThrow(ArgumentError);
    refuse({ grid: [0, 1, 1], block: [1, 1, 1] });
    refuse({ grid: [1, 65536, 1], block: [1, 1, 1] });
    refuse({ grid: [1, 1, 1], block: [64, 32, 1] });
    refuse({ grid: [1, 1], block: [1, 1, 1] });
    refuse({ grid: [1, 1, 1], block: [1, 1, 65] });
    refuse({ grid: [1, 1, 1], block: [1, 1, 1], sharedBytes: -1 });
    refuse({ grid: [1, 1, 1], block: [1, 1, 1], shared: 0 });
  });
});

describe('bytes arguments', () => {
  const parameter = { name: 'parameters', type: 'bytes', size: 24 } as const;
  const refusal = (args: unknown) => {
    try {
      packParameterBuffer('queue', 'axpy', parameter, args);
    } catch (error) {
      expect(error).toBeInstanceOf(ArgumentError);
      return error as ArgumentError;
    }
    throw new Error('accepted');
  };

  it('takes a copy of a Uint8Array of exactly the size', () => {
    const given = Uint8Array.from({ length: 24 }, (_, index) => index);
    const packed = packParameterBuffer('queue', 'axpy', parameter, { parameters: given });
    given[0] = 99;
    expect([...packed]).toEqual(Array.from({ length: 24 }, (_, index) => index));
  });

  it('refuses a missing, mistyped or mis-sized argument, and unknown arguments, naming them', () => {
    expect(refusal({}).argument).toBe('args.parameters');
    expect(refusal({ parameters: 5 }).argument).toBe('args.parameters');
    expect(refusal({ parameters: new Uint16Array(12) }).argument).toBe('args.parameters');
    const short = refusal({ parameters: new Uint8Array(23) });
    expect(short.argument).toBe('args.parameters');
    expect(short.message).toMatch(/holds 23 bytes, but the bytes parameter parameters of axpy has 24/);
    expect(refusal({ parameters: new Uint8Array(25) }).argument).toBe('args.parameters');
    expect(refusal({ parameters: new Uint8Array(24), y: 1 }).argument).toBe('args.y');
  });
});
