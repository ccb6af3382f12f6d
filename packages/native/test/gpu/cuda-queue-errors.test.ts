/**
 * The cuda queue's first-error semantics beyond the conformance kit: a bad page list found on the
 * device, the operation index of an injected fault, and work on pageable host memory (the host
 * path). Skips without a CUDA device.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DriverError, openRuntime, pageHash, type Runtime } from '../../src/index.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();

function pattern(bytes: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: bytes }, (_, index) => (index * 131 + seed * 17 + (index >> 9)) & 0xff);
}

describe.skipIf(!cuda.available)(`cuda queue errors and pageable memory${cuda.available ? '' : ` (${cuda.reason})`}`, () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'cuda' });
  });
  afterEach(() => runtime?.clearFaults());
  afterAll(() => runtime?.dispose());
  const agent = () => runtime.agents[0]!;

  it('fails a page-list copy whose list is out of range, copies none of it, skips later built-in work, and recovers', async () => {
    const queue = agent().createQueue();
    const buffer = agent().allocate(3 * 4096);
    const list = agent().allocate(8);
    const count = agent().allocate(4);
    await agent().write(buffer.address + 4096, new Uint8Array(8192));
    await agent().write(list.address, Uint8Array.of(0, 0, 0, 0, 9, 0, 0, 0)); // page 0 is valid, 9 is not
    await agent().write(count.address, Uint8Array.of(2, 0, 0, 0));
    const segments = [{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }];
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 1 });
    const failedIndex = queue.workEnqueued;
    queue.enqueueCopyPageList({ segments, pageBytes: 2048, pageListAddress: list.address, pageCountAddress: count.address });
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address + 8192, bytes: 4096, value: 7 }); // skipped
    queue.enqueueCopy(Array.from({ length: 64 }, (_, index) => ({ source: buffer.address, destination: buffer.address + 8192 + 64 * index, bytes: 8 }))); // skipped
    const error = await queue.synchronize().then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(DriverError);
    expect(error).toMatchObject({ code: 'invalid-page-list', operation: 'conditional-copy', operationIndex: failedIndex, driver: 'cuda' });
    expect([...(await agent().read(buffer.address + 8192, 16))]).toEqual(new Array(16).fill(0));
    expect([...(await agent().read(buffer.address + 4096, 16))], 'no page of a bad list is copied').toEqual(new Array(16).fill(0));
    // Recovered: the same work runs after the synchronize.
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address + 8192, bytes: 4096, value: 7 });
    await queue.synchronize();
    expect([...(await agent().read(buffer.address + 8192, 4))]).toEqual([7, 0, 0, 0]);
    await queue.dispose();
  });

  it('checks a page list over more pages than one launch checks (a kernel of its own) with the same results', async () => {
    const queue = agent().createQueue();
    const pageBytes = 128;
    const pages = 5000; // over KREPLAY_FUSED_CHECK_PAGES
    const source = agent().allocate(pages * pageBytes);
    const destination = agent().allocate(pages * pageBytes);
    const list = agent().allocate(pages * 4);
    const count = agent().allocate(4);
    const data = pattern(pages * pageBytes, 5);
    await agent().write(source.address, data);
    await agent().write(destination.address, new Uint8Array(pages * pageBytes));
    const segments = [{ source: source.address, destination: destination.address, bytes: pages * pageBytes }];
    const listed = [4999, 3, 2500];
    await agent().write(list.address, new Uint8Array(Uint32Array.from(listed).buffer));
    await agent().write(count.address, new Uint8Array(Uint32Array.of(listed.length).buffer));
    queue.enqueueCopyPageList({ segments, pageBytes, pageListAddress: list.address, pageCountAddress: count.address });
    await queue.synchronize();
    const copied = await agent().read(destination.address, pages * pageBytes);
    const expected = new Uint8Array(pages * pageBytes);
    for (const page of listed) expected.set(data.subarray(page * pageBytes, (page + 1) * pageBytes), page * pageBytes);
    expect(Buffer.from(copied).equals(Buffer.from(expected))).toBe(true);

    await agent().write(destination.address, new Uint8Array(pages * pageBytes));
    await agent().write(list.address, new Uint8Array(Uint32Array.of(3, pages).buffer)); // the second is out of range
    await agent().write(count.address, new Uint8Array(Uint32Array.of(2).buffer));
    const failedIndex = queue.workEnqueued;
    queue.enqueueCopyPageList({ segments, pageBytes, pageListAddress: list.address, pageCountAddress: count.address });
    const error = await queue.synchronize().then(() => undefined, (reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'invalid-page-list', operationIndex: failedIndex });
    expect([...(await agent().read(destination.address + 3 * pageBytes, 16))]).toEqual(new Array(16).fill(0));
    await queue.dispose();
  });

  it('says which work operation an injected fault failed, counted as queue.workEnqueued counts', async () => {
    const queue = agent().createQueue();
    const buffer = agent().allocate(2 * 4096);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 1 });
    queue.enqueueCopy([]);
    runtime.injectFault({ operation: 'copy', after: 1 });
    queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    const failedIndex = queue.workEnqueued;
    queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 4096, bytes: 4096 }]);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: 4096, value: 2 });
    const error = await queue.synchronize().then(() => undefined, (reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'injected-fault', operation: 'copy', operationIndex: failedIndex });
    expect([...(await agent().read(buffer.address, 4))]).toEqual([1, 0, 0, 0]);
    await queue.dispose();
  });

  it('runs conditional copies, hashes and kernels on pageable host memory like on device memory', async () => {
    const pageBytes = 4096;
    const bytes = 16 * pageBytes + 100;
    const pages = Math.ceil(bytes / pageBytes);
    const data = pattern(bytes, 3);
    const memory = agent().allocate(bytes);
    await agent().write(memory.address, data);
    const mirror = runtime.allocateHost(bytes, { pinned: false });
    const hashes = runtime.allocateHost(pages * 8, { pinned: false });
    const list = agent().allocate(pages * 4);
    const count = runtime.allocateHost(4, { pinned: false });
    const queue = agent().createQueue();
    const options = { pageBytes, storedHashesAddress: hashes.address, pageListAddress: list.address, pageCountAddress: count.address };
    queue.enqueueCopyChangedPages({ ...options, segments: [{ source: memory.address, destination: mirror.address, bytes }], hashedSide: 'source', updateStoredHashes: true });
    await queue.synchronize();
    expect(new Uint32Array(count.view().slice().buffer)[0]).toBe(pages);
    expect(Buffer.from(mirror.view()).equals(Buffer.from(data))).toBe(true);
    const stored = new BigUint64Array(hashes.view().slice().buffer);
    for (let page = 0; page < pages; page += 1) {
      expect(stored[page], `page ${page}`).toBe(pageHash(data.subarray(page * pageBytes, Math.min(bytes, (page + 1) * pageBytes))));
    }
    // A fill on the device, then a restore from the pageable mirror by hashing the destination.
    queue.enqueueKernel(runtime.kernels.fill, { destination: memory.address + 5 * pageBytes + 7, bytes: 10, value: 0xabcdef01 });
    queue.enqueueCopyChangedPages({ ...options, segments: [{ source: mirror.address, destination: memory.address, bytes }], hashedSide: 'destination', updateStoredHashes: false });
    await queue.synchronize();
    expect(new Uint32Array(count.view().slice().buffer)[0]).toBe(1);
    expect(Buffer.from(await agent().read(memory.address, bytes)).equals(Buffer.from(data))).toBe(true);
    // A built-in kernel on the pageable buffer itself.
    queue.enqueueKernel(runtime.kernels.fill, { destination: mirror.address + 3, bytes: 9, value: 0x04030201 });
    await queue.synchronize();
    expect([...mirror.view().subarray(3, 12)]).toEqual([1, 2, 3, 4, 1, 2, 3, 4, 1]);
    await queue.dispose();
  });

  it('copies many small segments through either copy path with the same result', async () => {
    // One plan of 4096 small segments goes through the chunk-copy kernel; a plan of one segment
    // through cuMemcpyAsync (cuda-copy-policy.hpp).
    const segments = 4096;
    const from = agent().allocate(segments * 64);
    const data = pattern(segments * 64, 11);
    await agent().write(from.address, data);
    const results: Buffer[] = [];
    for (const path of ['kernel', 'api']) {
      const to = agent().allocate(segments * 64);
      const queue = agent().createQueue();
      queue.enqueueKernel(runtime.kernels.fill, { destination: to.address, bytes: segments * 64, value: 0 });
      // Every 64-byte piece moved to the mirrored position, at an odd offset inside it.
      const pieces = Array.from({ length: segments }, (_, index) => ({ source: from.address + index * 64, destination: to.address + (segments - 1 - index) * 64 + 3, bytes: 61 }));
      if (path === 'kernel') queue.enqueueCopy(pieces);
      else for (const piece of pieces) queue.enqueueCopy([piece]);
      await queue.synchronize();
      results.push(Buffer.from(await agent().read(to.address, segments * 64)));
      await queue.dispose();
      to.free();
    }
    from.free();
    expect(results[0]!.equals(results[1]!)).toBe(true);
    expect([...results[0]!.subarray(3, 64)]).toEqual([...data.subarray((segments - 1) * 64, (segments - 1) * 64 + 61)]);
  });
});
