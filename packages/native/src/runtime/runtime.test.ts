import { describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { DisposedError } from '../errors/disposed-error.js';
import { DriverUnavailableError } from '../errors/driver-unavailable-error.js';
import { KreplayError } from '../errors/kreplay-error.js';
import { openRuntime } from './open-runtime.js';
import type { MemoryEvent } from './runtime-types.js';

const small = { driver: 'host', host: { agents: 2, deviceMemoryBytes: 1 << 20, threads: 1 } } as const;

describe('openRuntime', () => {
  it('opens the host driver and describes its agents', async () => {
    const runtime = await openRuntime(small);
    expect(runtime.driver).toBe('host');
    expect(runtime.agents.map((agent) => [agent.id, agent.info.deviceMemoryBytes, agent.info.driver])).toEqual([
      [0, 1 << 20, 'host'],
      [1, 1 << 20, 'host'],
    ]);
    expect(runtime.versions.addon).toMatch(/^\d+\.\d+\.\d+/);
    expect(runtime.agents[0]!.info.hostLink).toBeNull();
    const first = runtime.agents[0]!.allocate(100);
    const second = runtime.agents[1]!.allocate(100);
    expect(Math.abs(first.address - second.address)).toBeGreaterThanOrEqual(1 << 20);
    await runtime.dispose();
  });

  it.each(['cuda', 'hsa'] as const)('says why the %s driver is unavailable', async (driver) => {
    const error = await openRuntime({ driver }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DriverUnavailableError);
    expect(error).toMatchObject({ driver, packageName: 'native', component: 'runtime' });
    const { reason, message } = error as DriverUnavailableError;
    expect(reason).toMatch(driver === 'cuda' ? /libcuda\.so\.1/ : /libhsa-runtime64\.so\.1|\/dev\/kfd/);
    expect(message).toMatch(new RegExp(`^\\[native\\] \\[runtime\\] the ${driver} driver is not available: .+\\. .+\\.$`));
  });

  it('keeps a synchronize polling as long as waitSpinMicroseconds says (none on host by default)', async () => {
    const realSetImmediate = globalThis.setImmediate;
    let polls = 0;
    globalThis.setImmediate = ((callback: () => void) => {
      polls += 1;
      return realSetImmediate(callback);
    }) as typeof setImmediate;
    try {
      for (const [options, polled] of [[small, false], [{ ...small, waitSpinMicroseconds: 1_000_000 }, true]] as const) {
        await using runtime = await openRuntime(options);
        const buffer = runtime.agents[0]!.allocate(1 << 20);
        const queue = runtime.agents[0]!.createQueue();
        polls = 0;
        queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 1 << 20, value: 1 });
        await queue.synchronize();
        expect(polls > 0).toBe(polled);
      }
    } finally {
      globalThis.setImmediate = realSetImmediate;
    }
    for (const waitSpinMicroseconds of [-1, 1.5, 'x']) {
      await expect(openRuntime({ ...small, waitSpinMicroseconds: waitSpinMicroseconds as number })).rejects.toBeInstanceOf(ArgumentError);
    }
  });

  it('falls back to host with auto when no GPU runtime is present', async () => {
    const runtime = await openRuntime({ host: { deviceMemoryBytes: 1 << 20 } });
    expect(runtime.driver).toBe('host');
    await runtime[Symbol.asyncDispose]();
  });
});

describe('workIssued', () => {
  it('counts work of every queue and agent writes, but not reads, events or waits', async () => {
    const runtime = await openRuntime(small);
    const [first, second] = runtime.agents as [typeof runtime.agents[0], typeof runtime.agents[0]];
    const a = first.allocate(64);
    const b = second.allocate(64);
    const before = runtime.workIssued;
    const queueA = first.createQueue();
    const queueB = second.createQueue();
    queueA.enqueueCopy([{ source: a.address, destination: a.address + 32, bytes: 16 }]);
    queueB.enqueueHashPages([{ address: b.address, bytes: 64 }], 4096, b.address);
    queueA.recordEvent();
    await Promise.all([queueA.synchronize(), queueB.synchronize()]);
    expect(runtime.workIssued - before).toBe(2);
    await second.read(b.address, 8);
    expect(runtime.workIssued - before).toBe(2);
    await second.write(b.address, Uint8Array.of(1));
    expect(runtime.workIssued - before).toBe(3);
    await runtime.dispose();
  });
});

describe('dispose', () => {
  it('is idempotent, frees everything, and makes later use throw DisposedError', async () => {
    const runtime = await openRuntime(small);
    const agent = runtime.agents[0]!;
    const events: MemoryEvent[] = [];
    runtime.onMemoryEvent((event) => events.push(event));
    const queue = agent.createQueue();
    const allocation = agent.allocate(4096);
    const buffer = runtime.allocateHost(4096, { pinned: true });
    const view = buffer.view();
    view[0] = 42;
    queue.enqueueCopy([{ source: buffer.address, destination: allocation.address, bytes: 4096 }]);
    const event = queue.recordEvent();
    const first = runtime.dispose();
    expect(runtime.dispose()).toBe(first);
    await first;
    await runtime.dispose();
    expect(event.completed).toBe(true);
    expect(allocation.freed).toBe(true);
    expect(buffer.freed).toBe(true);
    expect(view.byteLength).toBe(0); // detached: never reads freed memory
    expect(events).toHaveLength(2); // no free events at dispose
    expect(() => agent.allocate(1)).toThrow(DisposedError);
    expect(() => allocation.free()).toThrow(DisposedError);
    expect(() => buffer.view()).toThrow(DisposedError);
    expect(() => queue.enqueueCopy([])).toThrow(DisposedError);
    expect(() => runtime.allocateHost(1, { pinned: false })).toThrow(DisposedError);
    expect(() => runtime.injectFault({ operation: 'copy' })).toThrow(DisposedError);
    await expect(queue.synchronize()).rejects.toThrow(DisposedError);
    await expect(agent.synchronize()).rejects.toThrow(DisposedError);
    await expect(agent.read(0, 1)).rejects.toThrow(DisposedError);
    await queue.dispose();
    await queue.dispose();
  });

  it('disposes a queue after its work, twice without error, and refuses it afterwards', async () => {
    const runtime = await openRuntime(small);
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const buffer = agent.allocate(8192);
    runtime.injectFault({ operation: 'kernel', delayMilliseconds: 30 });
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 8192, value: 5 });
    await Promise.all([queue.dispose(), queue.dispose()]);
    expect((await agent.read(buffer.address, 1))[0]).toBe(5);
    const error = (() => {
      try {
        queue.recordEvent();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DisposedError);
    expect(error).toBeInstanceOf(KreplayError);
    expect((error as DisposedError).objectName).toBe('Queue');
    await runtime.dispose();
  });
});

describe('memory in use by queued work', () => {
  it('frees a host buffer and device memory only after the queues pass the free, never crashing', async () => {
    const runtime = await openRuntime(small);
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const device = agent.allocate(1 << 16);
    const buffer = runtime.allocateHost(1 << 16, { pinned: true });
    runtime.injectFault({ operation: 'copy', delayMilliseconds: 50, count: 2 });
    queue.enqueueCopy([{ source: device.address, destination: buffer.address, bytes: 1 << 16 }]);
    queue.enqueueCopy([{ source: buffer.address, destination: device.address, bytes: 1 << 16 }]);
    buffer.free();
    device.free();
    expect(agent.allocate(1 << 16).address).not.toBe(device.address); // not reusable before the queue passes
    await queue.synchronize();
    await runtime.dispose();
  });

  it('rejects a read that the runtime was disposed under with DisposedError', async () => {
    const runtime = await openRuntime(small);
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const device = agent.allocate(4096);
    runtime.injectFault({ operation: 'kernel', delayMilliseconds: 50 });
    queue.enqueueKernel(runtime.kernels.fill, { destination: device.address, bytes: 4096, value: 1 });
    const read = expect(agent.read(device.address, 4096)).rejects.toThrow(DisposedError);
    await runtime.dispose();
    await read;
  });
});

describe('host buffers', () => {
  it('gives live views, frees once, and reports memory events', async () => {
    const runtime = await openRuntime(small);
    const events: MemoryEvent[] = [];
    const unsubscribe = runtime.onMemoryEvent((event) => events.push(event));
    const pinned = runtime.allocateHost(10_000, { pinned: true });
    const pageable = runtime.allocateHost(3, { pinned: false });
    expect(pinned.kind).toBe('host-pinned');
    expect(pageable.kind).toBe('host-pageable');
    expect(pinned.agentId).toBeNull();
    expect(pinned.view()).toBe(pinned.view());
    expect(pinned.view().every((byte) => byte === 0)).toBe(true);
    pinned.view().set([1, 2, 3]);
    expect([...(await runtime.agents[1]!.read(pinned.address, 3))]).toEqual([1, 2, 3]);
    expect(runtime.agents[1]!.findAllocation(pinned.address + 5)).toBe(pinned);
    pinned.free();
    expect(() => pinned.free()).toThrow(/freed/);
    expect(() => pinned.view()).toThrow(/freed/);
    unsubscribe();
    pageable.free();
    expect(events.map(({ type, kind, agentId }) => [type, kind, agentId])).toEqual([
      ['allocate', 'host-pinned', null],
      ['allocate', 'host-pageable', null],
      ['free', 'host-pinned', null],
    ]);
    await runtime.dispose();
  });
});
