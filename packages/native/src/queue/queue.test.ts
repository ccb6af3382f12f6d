import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { openRuntime } from '../runtime/open-runtime.js';
import type { Runtime } from '../runtime/runtime-objects.js';
import type { MemoryEvent } from '../runtime/runtime-types.js';

function pattern(count: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: count }, (_, index) => (index * 31 + seed) & 0xff);
}

describe('queues on the host driver', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 256 << 20, threads: 2 } });
  });
  afterAll(() => runtime.dispose());
  const agent = () => runtime.agents[0]!;

  it('runs a many-segment copy plan in one call, across device and host memory', async () => {
    const queue = agent().createQueue();
    const source = agent().allocate(1 << 20);
    const destination = agent().allocate(1 << 20);
    const staging = runtime.allocateHost(1 << 20, { pinned: true });
    const data = pattern(1 << 20, 3);
    await agent().write(source.address, data);
    const plan = Array.from({ length: 256 }, (_, index) => ({
      source: source.address + index * 4096,
      destination: staging.address + (255 - index) * 4096,
      bytes: 4096,
    }));
    queue.enqueueCopy(plan);
    queue.enqueueCopy([{ source: staging.address, destination: destination.address, bytes: 1 << 20 }]);
    await queue.synchronize();
    const copied = await agent().read(destination.address, 1 << 20);
    for (let index = 0; index < 256; index += 1) {
      const page = copied.subarray((255 - index) * 4096, (256 - index) * 4096);
      expect(Buffer.from(page).equals(Buffer.from(data.subarray(index * 4096, (index + 1) * 4096)))).toBe(true);
    }
    expect(Buffer.from(staging.view().subarray(0, 4096)).equals(Buffer.from(data.subarray(255 * 4096)))).toBe(true);
    await queue.dispose();
  });

  it('copies a big plan split over the thread pool exactly, and accepts empty plans', async () => {
    const queue = agent().createQueue();
    const bytes = 64 << 20;
    const source = agent().allocate(bytes);
    const destination = agent().allocate(bytes);
    queue.enqueueKernel(runtime.kernels.scatterWrite, {
      buffer: source.address, bytes, pageBytes: 4096, fraction: 1, seed: 3, source: 0, sourceBytes: 0,
    });
    queue.enqueueCopy([{ source: source.address, destination: destination.address, bytes }]);
    for (let run = 0; run < 100; run += 1) queue.enqueueCopy([]);
    await queue.synchronize();
    const [copied, original] = await Promise.all([
      queue.hashPages([{ address: destination.address, bytes }], 1 << 20),
      queue.hashPages([{ address: source.address, bytes }], 1 << 20),
    ]);
    expect(copied).toEqual(original);
    expect(new Set(copied).size).toBe(64);
    source.free();
    destination.free();
    await queue.dispose();
  });

  it('orders stream-ordered allocate and free, and reports both as memory events', async () => {
    const events: MemoryEvent[] = [];
    const unsubscribe = runtime.onMemoryEvent((event) => events.push(event));
    const queue = agent().createQueue();
    const allocation = queue.enqueueAllocate(10_000);
    expect(allocation.kind).toBe('stream-ordered');
    expect(agent().findAllocation(allocation.address + 9999)).toBe(allocation);
    queue.enqueueKernel(runtime.kernels.fill, { destination: allocation.address, bytes: 10_000, value: 0x01020304 });
    const host = runtime.allocateHost(10_000, { pinned: false });
    queue.enqueueCopy([{ source: allocation.address, destination: host.address, bytes: 10_000 }]);
    queue.enqueueFree(allocation);
    expect(allocation.freed).toBe(true);
    expect(agent().findAllocation(allocation.address)).toBeUndefined();
    expect(() => queue.enqueueFree(allocation)).toThrow(/already freed/);
    expect(() => queue.enqueueCopy([{ source: allocation.address, destination: host.address, bytes: 1 }])).toThrow(/may have been freed/);
    await queue.synchronize();
    expect(host.view()[4]).toBe(4);
    host.free();
    unsubscribe();
    expect(events.map(({ type, kind, queueId }) => [type, kind, queueId])).toEqual([
      ['allocate', 'stream-ordered', queue.id],
      ['allocate', 'host-pageable', undefined],
      ['free', 'stream-ordered', queue.id],
      ['free', 'host-pageable', undefined],
    ]);
    expect(events[0]).toMatchObject({ agentId: 0, address: allocation.address, bytes: 10_000 });
    await queue.dispose();
  });

  it('times spans with events and makes a queue wait for another queue\'s event', async () => {
    const first = agent().createQueue();
    const second = agent().createQueue();
    runtime.injectFault({ operation: 'copy', delayMilliseconds: 60, agentId: 0 });
    const buffer = agent().allocate(8192);
    const start = first.recordEvent();
    first.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    const end = first.recordEvent();
    second.waitForEvent(end);
    const after = second.recordEvent();
    expect(() => end.elapsedMillisecondsSince(start)).toThrow(ArgumentError);
    await after.synchronize();
    runtime.clearFaults();
    expect(end.completed).toBe(true);
    expect(end.elapsedMillisecondsSince(start)).toBeGreaterThanOrEqual(55);
    expect(after.elapsedMillisecondsSince(end)).toBeGreaterThanOrEqual(0);
    expect(() => end.elapsedMillisecondsSince(runtime.agents[1]!.createQueue().recordEvent())).toThrow(/same agent/);
    await Promise.all([first.dispose(), second.dispose()]);
  });

  it('copies only changed pages, records them, and copies the recorded list again', async () => {
    const queue = agent().createQueue();
    const pageBytes = 4096;
    const bytes = 16 * pageBytes + 100;
    const pages = 17;
    const memory = agent().allocate(bytes);
    const mirror = agent().allocate(bytes);
    const hashes = agent().allocate(pages * 8);
    const list = agent().allocate(pages * 4);
    const count = agent().allocate(4);
    await agent().write(memory.address, pattern(bytes, 1));
    const segments = [{ source: memory.address, destination: mirror.address, bytes }];
    const capture = { segments, pageBytes, hashedSide: 'source' as const, storedHashesAddress: hashes.address, updateStoredHashes: true, pageListAddress: list.address, pageCountAddress: count.address };
    queue.enqueueCopyChangedPages(capture); // stored hashes are zero: every page differs
    queue.enqueueCopyChangedPages(capture); // nothing changed since
    await queue.synchronize();
    expect(new Uint32Array((await agent().read(count.address, 4)).slice().buffer)[0]).toBe(0);
    expect(Buffer.from(await agent().read(mirror.address, bytes)).equals(Buffer.from(pattern(bytes, 1)))).toBe(true);

    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address + 3 * pageBytes + 10, bytes: 1, value: 0xff });
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address + 16 * pageBytes, bytes: 4, value: 0xff });
    queue.enqueueCopyChangedPages(capture);
    await queue.synchronize();
    expect(new Uint32Array((await agent().read(count.address, 4)).slice().buffer)[0]).toBe(2);
    expect([...new Uint32Array((await agent().read(list.address, 8)).slice().buffer)]).toEqual([3, 16]);

    // Restore memory from the mirror with the recorded list, after the "kernel" wrote the same pages.
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address + 3 * pageBytes, bytes: 8, value: 1 });
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address + 16 * pageBytes + 50, bytes: 8, value: 1 });
    const restore = [{ source: mirror.address, destination: memory.address, bytes }];
    queue.enqueueCopyPageList({ segments: restore, pageBytes, pageListAddress: list.address, pageCountAddress: count.address });
    await queue.synchronize();
    expect(Buffer.from(await agent().read(memory.address, bytes)).equals(Buffer.from(await agent().read(mirror.address, bytes)))).toBe(true);

    // Restore by hashing the destination: only the dirtied page is copied back.
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address + 5 * pageBytes, bytes: 8, value: 9 });
    queue.enqueueCopyChangedPages({ ...capture, segments: restore, hashedSide: 'destination', updateStoredHashes: false });
    await queue.synchronize();
    expect(new Uint32Array((await agent().read(count.address, 4)).slice().buffer)[0]).toBe(1);
    expect(Buffer.from(await agent().read(memory.address, bytes)).equals(Buffer.from(await agent().read(mirror.address, bytes)))).toBe(true);
    await queue.dispose();
  });

  it('fails a page-list copy whose list is out of range, without crashing', async () => {
    const queue = agent().createQueue();
    const buffer = agent().allocate(8192);
    const list = agent().allocate(8);
    const count = agent().allocate(4);
    await agent().write(list.address, Uint8Array.of(9, 0, 0, 0, 0, 0, 0, 0));
    await agent().write(count.address, Uint8Array.of(1, 0, 0, 0));
    const segments = [{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }];
    queue.enqueueCopyPageList({ segments, pageBytes: 2048, pageListAddress: list.address, pageCountAddress: count.address });
    await expect(queue.synchronize()).rejects.toMatchObject({ code: 'invalid-page-list', operation: 'conditional-copy' });
    await queue.dispose();
  });
});
