import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from './errors/argument-error.js';
import { UnsupportedError } from './errors/unsupported-error.js';
import { packKernelLaunchShape } from './kernel-launch-shape.js';
import { parameterBytes, requireKernelParameters } from './kernel-parameters.js';
import { openRuntime } from './open-runtime.js';
import type { Runtime } from './runtime.js';

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
    expect([...packKernelLaunchShape('queue', { grid: [10, 2, 1], block: [256, 1, 1], sharedBytes: 1024 })]).toEqual([10, 2, 1, 256, 1, 1, 1024]);
    expect([...packKernelLaunchShape('queue', { grid: [1, 1, 1], block: [32, 32, 1] })]).toEqual([1, 1, 1, 32, 32, 1, 0]);
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
