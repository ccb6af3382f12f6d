import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { DriverError } from '../errors/driver-error.js';
import { OutOfMemoryError } from '../errors/out-of-memory-error.js';
import { openRuntime } from './open-runtime.js';
import type { Runtime } from './runtime-objects.js';

describe('fault injection on the host driver', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 16 << 20, threads: 2 } });
  });
  afterEach(() => runtime.clearFaults());
  afterAll(() => runtime.dispose());
  const agent = () => runtime.agents[0]!;

  it('says which work operation failed, counted as queue.workEnqueued counts', async () => {
    const queue = agent().createQueue();
    const buffer = agent().allocate(2 * 4096);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 1 });
    queue.enqueueCopy([]); // an empty plan is numbered too
    await queue.synchronize();
    expect(queue.workEnqueued).toBe(2);
    runtime.injectFault({ operation: 'copy', after: 1 });
    queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    const recordedBeforeFailure = queue.workEnqueued;
    queue.recordEvent();
    queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    expect(() => queue.enqueueCopy([{ source: buffer.address, destination: buffer.address, bytes: 1 << 30 }])).toThrow(ArgumentError);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 2 });
    expect(queue.workEnqueued).toBe(5);
    const error = await queue.synchronize().then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).operationIndex).toBe(recordedBeforeFailure);
    await queue.dispose();
  });

  it('reports free and total device memory, and free memory falls as memory is allocated', () => {
    const before = agent().memoryInfo();
    expect(before.totalBytes).toBe(16 << 20);
    const allocation = agent().allocate(1 << 20);
    expect(agent().memoryInfo().freeBytes).toBe(before.freeBytes - (1 << 20));
    allocation.free();
  });

  it('fails the (after+1)-th matching operation, skips later work, and clears at synchronize', async () => {
    const queue = agent().createQueue();
    const buffer = agent().allocate(3 * 4096);
    runtime.injectFault({ operation: 'copy', after: 1 });
    const copy = (to: number) => queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + to * 4096, bytes: 4096 }]);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 0x11111111 });
    copy(1); // first copy: succeeds
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 0x22222222 });
    copy(2); // second copy: fails
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address + 4096, bytes: 4096, value: 0x33333333 }); // skipped
    const error = await queue.synchronize().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DriverError);
    expect(error).toMatchObject({ code: 'injected-fault', operation: 'copy', agentId: 0, driver: 'host' });
    expect((error as Error).message).toMatch(/^\[native\] \[queue\] /);
    const bytes = await agent().read(buffer.address, 3 * 4096);
    expect(bytes[4096]).toBe(0x11); // the first copy ran, the fill after the failure did not
    expect(bytes[2 * 4096]).toBe(0); // the failed copy did nothing
    await queue.synchronize(); // cleared
    copy(2); // a fault hits only `count` operations
    await queue.synchronize();
    expect((await agent().read(buffer.address + 2 * 4096, 1))[0]).toBe(0x22);
    await queue.dispose();
  });

  it('matches kinds, agents and any; a page-list copy counts as conditional-copy', async () => {
    const other = runtime.agents[1]!.createQueue();
    const queue = agent().createQueue();
    const buffer = agent().allocate(8192);
    runtime.injectFault({ operation: 'any', agentId: 1 });
    runtime.injectFault({ operation: 'hash', count: 2 });
    queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    await queue.synchronize();
    await expect(queue.hashPages([{ address: buffer.address, bytes: 8192 }], 4096)).rejects.toMatchObject({ code: 'injected-fault', operation: 'hash' });
    await expect(queue.hashPages([{ address: buffer.address, bytes: 8192 }], 4096)).rejects.toThrow(DriverError);
    expect((await queue.hashPages([{ address: buffer.address, bytes: 8192 }], 4096)).length).toBe(2);
    const remote = runtime.agents[1]!.allocate(4096);
    other.enqueueKernel(runtime.kernels.fill, { destination: remote.address, bytes: 4096, value: 1 });
    await expect(other.synchronize()).rejects.toMatchObject({ code: 'injected-fault', operation: 'kernel', agentId: 1 });
    runtime.clearFaults();
    runtime.injectFault({ operation: 'conditional-copy' });
    const count = agent().allocate(4);
    queue.enqueueCopyPageList({
      segments: [{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }],
      pageBytes: 4096,
      pageListAddress: buffer.address,
      pageCountAddress: count.address,
    });
    await expect(queue.synchronize()).rejects.toMatchObject({ operation: 'conditional-copy' });
    await Promise.all([queue.dispose(), other.dispose()]);
  });

  it('makes allocate and enqueueAllocate throw OutOfMemoryError', () => {
    const queue = agent().createQueue();
    runtime.injectFault({ operation: 'allocate', count: 2 });
    expect(() => agent().allocate(4096)).toThrow(OutOfMemoryError);
    expect(() => queue.enqueueAllocate(4096)).toThrow(/injected allocate fault/);
    expect(agent().allocate(4096).bytes).toBe(4096);
    void queue.dispose();
  });

  it('delays operations instead of failing them', async () => {
    const queue = agent().createQueue();
    const other = agent().createQueue();
    const buffer = agent().allocate(8192);
    const filled = agent().allocate(4096);
    await agent().write(buffer.address, new Uint8Array(4096).fill(0xab));
    runtime.injectFault({ operation: 'copy', delayMilliseconds: 200 });
    queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    const copied = queue.recordEvent();
    // Order, not time: work enqueued later on another queue is done while the delayed copy is held.
    other.enqueueKernel(runtime.kernels.fill, { destination: filled.address, bytes: 4096, value: 0x01020304 });
    await other.synchronize();
    expect(copied.completed, 'the delayed copy finished before the later work of another queue').toBe(false);
    await queue.synchronize();
    expect(copied.completed).toBe(true);
    expect(await agent().read(buffer.address + 4096, 4096)).toEqual(new Uint8Array(4096).fill(0xab));
    await Promise.all([queue.dispose(), other.dispose()]);
  });

  it('validates fault specs', () => {
    expect(() => runtime.injectFault({ operation: 'teleport' as 'copy' })).toThrow(ArgumentError);
    expect(() => runtime.injectFault({ operation: 'copy', after: -1 })).toThrow(ArgumentError);
    expect(() => runtime.injectFault({ operation: 'copy', count: 0 })).toThrow(ArgumentError);
    expect(() => runtime.injectFault({ operation: 'copy', agentId: 2 })).toThrow(ArgumentError);
    expect(() => runtime.injectFault({ operation: 'copy', delayMilliseconds: Number.NaN })).toThrow(ArgumentError);
  });
});
