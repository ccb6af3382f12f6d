import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { DisposedError } from '../errors/disposed-error.js';
import { DriverError } from '../errors/driver-error.js';
import { KernelGraphHandle } from './kernel-graph.js';
import { openRuntime } from '../runtime/open-runtime.js';
import type { Runtime } from '../runtime/runtime-objects.js';
import type { GraphStep } from '../runtime/runtime-types.js';

const floats = (count: number, seed: number) => new Uint8Array(Float32Array.from({ length: count }, (_, index) => ((index * 7 + seed) % 23) - 11).buffer);

describe('kernel graphs on the host driver', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 64 << 20, threads: 2 } });
  });
  afterAll(() => runtime.dispose());
  const agent = () => runtime.agents[0]!;

  /** Two buffers of 4096 floats with their first contents, and a graph over them: memset, copy, stencil (in place), fill. */
  async function fixture() {
    const a = agent().allocate(1 << 14);
    const b = agent().allocate(1 << 14);
    await agent().write(a.address, floats(4096, 1));
    await agent().write(b.address, floats(4096, 5));
    const steps: GraphStep[] = [
      { kind: 'memset', address: b.address + 4096, bytes: 100, value: 0x3f },
      { kind: 'copy', source: b.address, destination: a.address + 8192, bytes: 4096 },
      { kind: 'kernel', kernel: runtime.kernels.stencil, args: { buffer: a.address, count: 4096 } },
      { kind: 'kernel', kernel: runtime.kernels.fill, args: { destination: b.address, bytes: 64, value: 7 } },
    ];
    return { a, b, steps };
  }

  it('runs the steps in order as one work operation, leaving the memory the steps run one by one leave', async () => {
    const { a, b, steps } = await fixture();
    const queue = agent().createQueue();
    const graph = agent().createGraph(steps);
    expect(graph).toBeInstanceOf(KernelGraphHandle);
    expect(graph.steps.map((step) => step.kind)).toEqual(['memset', 'copy', 'kernel', 'kernel']);
    const before = queue.workEnqueued;
    queue.enqueueGraph(graph);
    expect(queue.workEnqueued).toBe(before + 1);
    await queue.synchronize();
    const byGraph = [await agent().read(a.address, 1 << 14), await agent().read(b.address, 1 << 14)];

    await agent().write(a.address, floats(4096, 1));
    await agent().write(b.address, floats(4096, 5));
    const fill = new Uint8Array(100).fill(0x3f);
    await agent().write(b.address + 4096, fill);
    queue.enqueueCopy([{ source: b.address, destination: a.address + 8192, bytes: 4096 }]);
    queue.enqueueKernel(runtime.kernels.stencil, { buffer: a.address, count: 4096 });
    queue.enqueueKernel(runtime.kernels.fill, { destination: b.address, bytes: 64, value: 7 });
    await queue.synchronize();
    expect(Buffer.from(await agent().read(a.address, 1 << 14)).equals(Buffer.from(byGraph[0]!))).toBe(true);
    expect(Buffer.from(await agent().read(b.address, 1 << 14)).equals(Buffer.from(byGraph[1]!))).toBe(true);
    graph.dispose();
    await queue.dispose();
    a.free();
    b.free();
  });

  it('launches again from the memory it finds: an in-place step twice is not the same as once', async () => {
    const { a, b, steps } = await fixture();
    const queue = agent().createQueue();
    using graph = agent().createGraph(steps);
    queue.enqueueGraph(graph);
    await queue.synchronize();
    const once = await agent().read(a.address, 1 << 14);
    queue.enqueueGraph(graph);
    await queue.synchronize();
    expect(Buffer.from(await agent().read(a.address, 1 << 14)).equals(Buffer.from(once))).toBe(false);
    await queue.dispose();
    a.free();
    b.free();
  });

  it('copies the steps: later changes to the caller\'s objects do not reach the graph', async () => {
    const { a, b } = await fixture();
    const args = { destination: a.address, bytes: 16, value: 9 };
    using graph = agent().createGraph([{ kind: 'kernel', kernel: runtime.kernels.fill, args }]);
    args.value = 1;
    const queue = agent().createQueue();
    queue.enqueueGraph(graph);
    await queue.synchronize();
    expect(Array.from(new Uint32Array((await agent().read(a.address, 16)).buffer))).toEqual([9, 9, 9, 9]);
    await queue.dispose();
    a.free();
    b.free();
  });

  it('refuses steps a queue would refuse, naming the step', async () => {
    const { a, b } = await fixture();
    expect(() => agent().createGraph([])).toThrow(ArgumentError);
    expect(() => agent().createGraph([{ kind: 'wait' } as never])).toThrow(/steps\[0\]\.kind is "wait", not one of kernel, memset, copy/);
    expect(() => agent().createGraph([{ kind: 'memset', address: a.address, bytes: 16, value: 256 }])).toThrow(/steps\[0\]\.value is 256, not a byte/);
    expect(() => agent().createGraph([{ kind: 'memset', address: a.address, bytes: 1 << 20, value: 0 }])).toThrow(ArgumentError);
    expect(() => agent().createGraph([{ kind: 'copy', source: a.address, destination: b.address + 4096, bytes: 1 << 14 }])).toThrow(/steps\[0\]/);
    expect(() => agent().createGraph([{ kind: 'kernel', kernel: runtime.kernels.fill, args: { destination: a.address } }])).toThrow(/args\.bytes/);
    a.free();
    b.free();
  });

  it('refuses a graph of another agent, a disposed graph, and a graph whose memory was freed', async () => {
    const { a, b, steps } = await fixture();
    const graph = agent().createGraph(steps);
    const other = runtime.agents[1]!.createQueue();
    expect(() => other.enqueueGraph(graph)).toThrow(/belongs to agent 0 of this runtime, not agent 1/);
    expect(() => other.enqueueGraph({} as never)).toThrow(/not a KernelGraph/);
    const queue = agent().createQueue();
    b.free();
    expect(() => queue.enqueueGraph(graph)).toThrow(ArgumentError);
    graph.dispose();
    expect(graph.disposed).toBe(true);
    expect(() => queue.enqueueGraph(graph)).toThrow(DisposedError);
    await Promise.all([queue.dispose(), other.dispose()]);
    a.free();
  });

  it('fails as one kernel operation under fault injection, and the queue reports it', async () => {
    const { a, b, steps } = await fixture();
    using graph = agent().createGraph(steps);
    const queue = agent().createQueue();
    runtime.injectFault({ operation: 'kernel', count: 1 });
    queue.enqueueGraph(graph);
    await expect(queue.synchronize()).rejects.toBeInstanceOf(DriverError);
    runtime.clearFaults();
    queue.enqueueGraph(graph);
    await queue.synchronize();
    await queue.dispose();
    a.free();
    b.free();
  });
});
