/**
 * Kernel graphs on the cuda driver (agent.createGraph, queue.enqueueGraph): a CUDA graph of user
 * kernels, memsets and copies, launched as one unit, leaves the memory its steps run one by one leave;
 * built-in kernels are refused. Skips without a CUDA device (the fake libcuda runs graphs).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, UnsupportedError, type GraphStep, type KernelDescriptor, type Runtime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
const scaleFloats = {
  path: fileURLToPath(new URL('./kernels/scale-floats.ptx', import.meta.url)),
  name: 'kreplay_test_scale_floats',
  parameters: [
    { name: 'data', type: 'pointer', access: 'readwrite', extent: { countParameter: 'count', elementBytes: 4 } },
    { name: 'count', type: 'u32' },
    { name: 'factor', type: 'f32' },
  ],
} as const;

describe.skipIf(!cuda.available)(`cuda kernel graphs${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  let kernel: KernelDescriptor;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'cuda' });
    kernel = await runtime.loadKernel({ ...scaleFloats, parameters: [...scaleFloats.parameters] });
  });
  afterAll(() => runtime?.dispose());

  it('launches user kernels, memsets and copies as one CUDA graph, leaving the memory of the steps run one by one', async () => {
    const agent = runtime.agents[0]!;
    const count = 8192;
    const values = new Uint8Array(Float32Array.from({ length: count }, (_, index) => (index % 97) * 0.5 - 20).buffer);
    const [a, b] = [agent.allocate(count * 4), agent.allocate(count * 4)];
    const pinned = runtime.allocateHost(4096, { pinned: true });
    const launch = { grid: [count / 256, 1, 1], block: [256, 1, 1] } as const;
    const steps: GraphStep[] = [
      { kind: 'kernel', kernel, args: { data: a.address, count, factor: 1.5 }, launch },
      { kind: 'memset', address: a.address + 1024, bytes: 512, value: 0 },
      { kind: 'copy', source: a.address, destination: b.address, bytes: count * 4 },
      { kind: 'kernel', kernel, args: { data: b.address, count: 1024, factor: -2 }, launch: { grid: [4, 1, 1], block: [256, 1, 1] } },
      { kind: 'copy', source: b.address, destination: pinned.address, bytes: 4096 },
    ];
    const queue = agent.createQueue();
    const reset = async () => {
      await agent.write(a.address, values);
      await agent.write(b.address, new Uint8Array(count * 4));
    };
    await reset();
    using graph = agent.createGraph(steps);
    queue.enqueueGraph(graph);
    await queue.synchronize();
    const byGraph = [await agent.read(a.address, count * 4), await agent.read(b.address, count * 4), pinned.view().slice(0, 4096)];
    await reset();
    queue.enqueueKernel(kernel, { data: a.address, count, factor: 1.5 }, launch);
    await queue.synchronize();
    await agent.write(a.address + 1024, new Uint8Array(512));
    queue.enqueueCopy([{ source: a.address, destination: b.address, bytes: count * 4 }]);
    queue.enqueueKernel(kernel, { data: b.address, count: 1024, factor: -2 }, { grid: [4, 1, 1], block: [256, 1, 1] });
    queue.enqueueCopy([{ source: b.address, destination: pinned.address, bytes: 4096 }]);
    await queue.synchronize();
    expect(Buffer.from(await agent.read(a.address, count * 4)).equals(Buffer.from(byGraph[0]!))).toBe(true);
    expect(Buffer.from(await agent.read(b.address, count * 4)).equals(Buffer.from(byGraph[1]!))).toBe(true);
    expect(Buffer.from(pinned.view().slice(0, 4096)).equals(Buffer.from(byGraph[2]!))).toBe(true);
    // Launched again, the graph runs from the memory it finds.
    queue.enqueueGraph(graph);
    await queue.synchronize();
    expect(Buffer.from(await agent.read(a.address, count * 4)).equals(Buffer.from(byGraph[0]!))).toBe(false);
    await queue.dispose();
    a.free();
    b.free();
    pinned.free();
  });

  it('refuses built-in kernels in a graph, and memory a graph node cannot reach (pageable host memory)', async () => {
    const agent = runtime.agents[0]!;
    const device = agent.allocate(4096);
    const pageable = runtime.allocateHost(4096, { pinned: false });
    expect(() => agent.createGraph([{ kind: 'kernel', kernel: runtime.kernels.fill, args: { destination: device.address, bytes: 64, value: 1 } }])).toThrow(UnsupportedError);
    expect(() => agent.createGraph([{ kind: 'kernel', kernel: runtime.kernels.fill, args: { destination: device.address, bytes: 64, value: 1 } }])).toThrow(/built-in kernels/);
    expect(() => agent.createGraph([{ kind: 'copy', source: pageable.address, destination: device.address, bytes: 4096 }])).toThrow(/pageable host buffer/);
    device.free();
    pageable.free();
  });
});
