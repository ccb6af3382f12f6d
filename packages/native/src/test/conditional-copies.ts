import { describe, expect, it } from 'vitest';
import type { DeviceAllocation } from '../index.js';
import { expectSameBytes, readUint32s, readUint64s, uint32Bytes } from './memory-access.js';
import { oddLength, pageCount, type ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { referencePageHashes } from './reference-hashes.js';
import { type SuiteRuntime, useSuiteRuntime } from './suite-runtime.js';

/** The buffers of one conditional-copy scenario: memory, its mirror, stored hashes, page list and count. */
interface Scenario {
  readonly data: Uint8Array;
  readonly memory: DeviceAllocation;
  readonly mirror: DeviceAllocation;
  readonly hashes: DeviceAllocation;
  readonly pageList: DeviceAllocation;
  readonly pageCount: DeviceAllocation;
}

async function createScenario(suite: SuiteRuntime, bytes: number, pageBytes: number, seed: number): Promise<Scenario> {
  const pages = pageCount(bytes, pageBytes);
  const data = randomBytes(bytes, seed);
  const memory = await suite.allocateWith(data);
  const mirror = await suite.allocateWith(data);
  const hashes = suite.allocate(pages * 8);
  const pageList = await suite.allocateWith(uint32Bytes(new Array<number>(pages).fill(0xdeadbeef)));
  const pageCountBuffer = await suite.allocateWith(uint32Bytes([0xffffffff]));
  const queue = suite.createQueue();
  queue.enqueueHashPages([{ address: mirror.address, bytes }], pageBytes, hashes.address);
  await queue.synchronize();
  return { data, memory, mirror, hashes, pageList, pageCount: pageCountBuffer };
}

/** Changes a few bytes of `page` of the allocation (first, middle and last byte of the page). */
async function touchPage(suite: SuiteRuntime, allocation: DeviceAllocation, page: number, pageBytes: number, salt: number): Promise<void> {
  const start = page * pageBytes;
  const end = Math.min(start + pageBytes, allocation.bytes);
  for (const offset of [start, (start + end) >> 1, end - 1]) {
    const [old] = await suite.agent.read(allocation.address + offset, 1);
    await suite.agent.write(allocation.address + offset, Uint8Array.of((old! + 1 + salt) & 0xff));
  }
}

/** The recorded page indices, sorted, and the count. */
async function recordedPages(suite: SuiteRuntime, scenario: Scenario): Promise<number[]> {
  const [count] = await readUint32s(suite.agent, scenario.pageCount.address, 1);
  const indices = await readUint32s(suite.agent, scenario.pageList.address, count!);
  return [...indices].sort((left, right) => left - right);
}

/** Conditional copies in both directions, and replaying a recorded page list. */
export function describeConditionalCopies(options: ResolvedDriverTestOptions): void {
  describe('conditional copies', () => {
    const suite = useSuiteRuntime(options);
    const { pageBytes } = options.sizes;
    const bytes = oddLength(options);
    const pages = pageCount(bytes, pageBytes);
    const last = pages - 1;

    it('source side: brings a mirror up to date, copying only pages whose hash changed, and updates the stored hashes', async () => {
      const scenario = await createScenario(suite, bytes, pageBytes, 131);
      const { memory, mirror, hashes } = scenario;
      for (const page of [0, 2, last]) await touchPage(suite, memory, page, pageBytes, 0);
      // A stale mirror page whose memory page still matches its stored hash must not be copied.
      await touchPage(suite, mirror, 1, pageBytes, 7);
      const staleMirrorPage = (await suite.agent.read(mirror.address + pageBytes, pageBytes)).slice();
      const queue = suite.createQueue();
      const copy = {
        segments: [{ source: memory.address, destination: mirror.address, bytes }],
        pageBytes,
        hashedSide: 'source' as const,
        storedHashesAddress: hashes.address,
        updateStoredHashes: true,
        pageListAddress: scenario.pageList.address,
        pageCountAddress: scenario.pageCount.address,
      };
      queue.enqueueCopyChangedPages(copy);
      await queue.synchronize();
      expect(await recordedPages(suite, scenario)).toEqual([0, 2, last]);
      const memoryNow = await suite.agent.read(memory.address, bytes);
      const expectedMirror = memoryNow.slice();
      expectedMirror.set(staleMirrorPage, pageBytes);
      expectSameBytes(await suite.agent.read(mirror.address, bytes), expectedMirror, 'mirror after the conditional copy');
      expect([...(await readUint64s(suite.agent, hashes.address, pages))]).toEqual([...referencePageHashes([memoryNow], pageBytes)]);

      // Nothing changed since: the count is set to 0, not accumulated.
      queue.enqueueCopyChangedPages(copy);
      await queue.synchronize();
      expect(await recordedPages(suite, scenario)).toEqual([]);
    });

    it('source side without updateStoredHashes leaves the stored hashes, so the same pages are copied again', async () => {
      const scenario = await createScenario(suite, bytes, pageBytes, 141);
      const { memory, mirror, hashes } = scenario;
      const storedBefore = await readUint64s(suite.agent, hashes.address, pages);
      for (const page of [1, 3]) await touchPage(suite, memory, page, pageBytes, 0);
      const queue = suite.createQueue();
      const copy = {
        segments: [{ source: memory.address, destination: mirror.address, bytes }],
        pageBytes,
        hashedSide: 'source' as const,
        storedHashesAddress: hashes.address,
        updateStoredHashes: false,
        pageListAddress: scenario.pageList.address,
        pageCountAddress: scenario.pageCount.address,
      };
      queue.enqueueCopyChangedPages(copy);
      await queue.synchronize();
      expect(await recordedPages(suite, scenario)).toEqual([1, 3]);
      expect([...(await readUint64s(suite.agent, hashes.address, pages))]).toEqual([...storedBefore]);
      queue.enqueueCopyChangedPages(copy);
      await queue.synchronize();
      expect(await recordedPages(suite, scenario)).toEqual([1, 3]);
      expectSameBytes(await suite.agent.read(mirror.address, bytes), await suite.agent.read(memory.address, bytes), 'mirror');
    });

    it('destination side: restores memory from the mirror, copying only pages whose hash differs from the stored one', async () => {
      const scenario = await createScenario(suite, bytes, pageBytes, 151);
      const { data, memory, mirror, hashes } = scenario;
      for (const page of [1, 3, last]) await touchPage(suite, memory, page, pageBytes, 0);
      // The mirror's page 3 holds newer bytes: they are what memory gets back, and what the stored hash becomes.
      await touchPage(suite, mirror, 3, pageBytes, 3);
      // A mirror page differing from memory whose memory page matches its stored hash must not be copied.
      await touchPage(suite, mirror, 0, pageBytes, 5);
      const mirrorNow = await suite.agent.read(mirror.address, bytes);
      const queue = suite.createQueue();
      queue.enqueueCopyChangedPages({
        segments: [{ source: mirror.address, destination: memory.address, bytes }],
        pageBytes,
        hashedSide: 'destination',
        storedHashesAddress: hashes.address,
        updateStoredHashes: true,
        pageListAddress: scenario.pageList.address,
        pageCountAddress: scenario.pageCount.address,
      });
      await queue.synchronize();
      expect(await recordedPages(suite, scenario)).toEqual([1, 3, last]);
      const expected = data.slice();
      expected.set(mirrorNow.subarray(3 * pageBytes, 4 * pageBytes), 3 * pageBytes);
      const memoryNow = await suite.agent.read(memory.address, bytes);
      expectSameBytes(memoryNow, expected, 'memory after the restore');
      expect([...(await readUint64s(suite.agent, hashes.address, pages))]).toEqual([...referencePageHashes([memoryNow], pageBytes)]);
    });

    it('enqueueCopyPageList copies again exactly the recorded pages', async () => {
      const scenario = await createScenario(suite, bytes, pageBytes, 161);
      const { data, memory, mirror, hashes } = scenario;
      for (const page of [2, last]) await touchPage(suite, memory, page, pageBytes, 0);
      const queue = suite.createQueue();
      const restore = { segments: [{ source: mirror.address, destination: memory.address, bytes }], pageBytes };
      queue.enqueueCopyChangedPages({
        ...restore,
        hashedSide: 'destination',
        storedHashesAddress: hashes.address,
        updateStoredHashes: false,
        pageListAddress: scenario.pageList.address,
        pageCountAddress: scenario.pageCount.address,
      });
      await queue.synchronize();
      expect(await recordedPages(suite, scenario)).toEqual([2, last]);
      expectSameBytes(await suite.agent.read(memory.address, bytes), data, 'memory after the conditional restore');

      // The next pass writes the same pages, and one more that the list does not hold.
      for (const page of [2, last, 0]) await touchPage(suite, memory, page, pageBytes, 9);
      const touched = await suite.agent.read(memory.address, bytes);
      queue.enqueueCopyPageList({ ...restore, pageListAddress: scenario.pageList.address, pageCountAddress: scenario.pageCount.address });
      await queue.synchronize();
      const expected = data.slice();
      expected.set(touched.subarray(0, pageBytes), 0);
      expectSameBytes(await suite.agent.read(memory.address, bytes), expected, 'memory after the page-list copy');
      expect(await recordedPages(suite, scenario), 'the page list is left as it was').toEqual([2, last]);
    });

    it('enqueueCopyPageList with storedHashesAddress stores the hash of each copied page, and only those', async () => {
      const scenario = await createScenario(suite, bytes, pageBytes, 163);
      const { data, memory, mirror, hashes } = scenario;
      // A recorded list of pages 1 and the last one, written as a conditional copy would.
      await suite.agent.write(scenario.pageList.address, uint32Bytes([last, 1]));
      await suite.agent.write(scenario.pageCount.address, uint32Bytes([2]));
      for (const page of [1, last, 0]) await touchPage(suite, memory, page, pageBytes, 5);
      const memoryNow = await suite.agent.read(memory.address, bytes);
      const storedBefore = await readUint64s(suite.agent, hashes.address, pages);
      const queue = suite.createQueue();
      queue.enqueueCopyPageList({
        segments: [{ source: memory.address, destination: mirror.address, bytes }],
        pageBytes,
        pageListAddress: scenario.pageList.address,
        pageCountAddress: scenario.pageCount.address,
        storedHashesAddress: hashes.address,
      });
      await queue.synchronize();
      const expected = data.slice();
      for (const page of [1, last]) expected.set(memoryNow.subarray(page * pageBytes, Math.min(bytes, (page + 1) * pageBytes)), page * pageBytes);
      expectSameBytes(await suite.agent.read(mirror.address, bytes), expected, 'the mirror after the page-list copy');
      const expectedHashes = [...storedBefore];
      const mirrorHashes = referencePageHashes([expected], pageBytes);
      for (const page of [1, last]) expectedHashes[page] = mirrorHashes[page]!;
      expect([...(await readUint64s(suite.agent, hashes.address, pages))]).toEqual(expectedHashes);
    });

    it('enqueueCopyPageList with a compact buffer gathers the first listed pages into it in list order, and scatters them back from it', async () => {
      if (!suite.runtime.compactPageLists) {
        const scenario = await createScenario(suite, bytes, pageBytes, 165);
        const queue = suite.createQueue();
        const buffer = suite.allocate(pageBytes);
        const copy = { segments: [{ source: scenario.memory.address, destination: scenario.mirror.address, bytes }], pageBytes, pageListAddress: scenario.pageList.address, pageCountAddress: scenario.pageCount.address };
        expect(() => queue.enqueueCopyPageList({ ...copy, compact: { address: buffer.address, pages: 1, side: 'destination' } })).toThrow(/compact/);
        return;
      }
      const scenario = await createScenario(suite, bytes, pageBytes, 165);
      const { data, memory, mirror } = scenario;
      // A list of the short last page, page 1 and page 0; the buffer holds the first two.
      await suite.agent.write(scenario.pageList.address, uint32Bytes([last, 1, 0]));
      await suite.agent.write(scenario.pageCount.address, uint32Bytes([3]));
      const buffer = await suite.allocateWith(randomBytes(2 * pageBytes, 166));
      const list = { pageBytes, pageListAddress: scenario.pageList.address, pageCountAddress: scenario.pageCount.address };
      const pageOf = (bytesOf: Uint8Array, page: number) => bytesOf.subarray(page * pageBytes, Math.min(bytes, (page + 1) * pageBytes));
      const queue = suite.createQueue();
      for (const page of [last, 1, 0]) await touchPage(suite, mirror, page, pageBytes, 3);
      const mirrorBefore = await suite.agent.read(mirror.address, bytes);
      queue.enqueueCopyPageList({ ...list, segments: [{ source: memory.address, destination: mirror.address, bytes }], compact: { address: buffer.address, pages: 2, side: 'destination' } });
      await queue.synchronize();
      const gathered = await suite.agent.read(buffer.address, 2 * pageBytes);
      expectSameBytes(gathered.subarray(0, pageOf(data, last).length), pageOf(data, last), 'buffer slot 0 (the last page)');
      expectSameBytes(gathered.subarray(pageBytes, 2 * pageBytes), pageOf(data, 1), 'buffer slot 1 (page 1)');
      expectSameBytes(await suite.agent.read(mirror.address, bytes), mirrorBefore, 'the destination, which a gather leaves as it was');

      // Slot 1 now holds other bytes: the scatter takes page 1 from it and page 0 from the mirror.
      const slot1 = randomBytes(pageBytes, 167);
      await suite.agent.write(buffer.address + pageBytes, slot1);
      for (const page of [last, 1, 0, 2]) await touchPage(suite, memory, page, pageBytes, 7);
      const memoryBefore = await suite.agent.read(memory.address, bytes);
      queue.enqueueCopyPageList({ ...list, segments: [{ source: mirror.address, destination: memory.address, bytes }], compact: { address: buffer.address, pages: 2, side: 'source' } });
      await queue.synchronize();
      const expected = memoryBefore.slice();
      expected.set(pageOf(data, last), last * pageBytes);
      expected.set(slot1, pageBytes);
      expected.set(pageOf(mirrorBefore, 0), 0);
      expectSameBytes(await suite.agent.read(memory.address, bytes), expected, 'memory after the scatter');
    });

    it('keeps the mirror in a pinned host buffer: capture into it, restore from it', async () => {
      const data = randomBytes(bytes, 165);
      const memory = await suite.allocateWith(data);
      const mirror = suite.allocateHost(bytes, true);
      mirror.view().fill(0);
      const hashes = await suite.allocateWith(new Uint8Array(pages * 8)); // no page hashes to 0: all pages differ
      const pageList = suite.allocate(pages * 4);
      const pageCountBuffer = suite.allocate(4);
      const queue = suite.createQueue();
      const buffers = { storedHashesAddress: hashes.address, pageListAddress: pageList.address, pageCountAddress: pageCountBuffer.address };
      queue.enqueueCopyChangedPages({
        segments: [{ source: memory.address, destination: mirror.address, bytes }],
        pageBytes,
        hashedSide: 'source',
        updateStoredHashes: true,
        ...buffers,
      });
      await queue.synchronize();
      const [captured] = await readUint32s(suite.agent, pageCountBuffer.address, 1);
      expect(captured).toBe(pages);
      expectSameBytes(mirror.view(), data, 'the host mirror after capture');

      for (const page of [1, last]) await touchPage(suite, memory, page, pageBytes, 0);
      queue.enqueueCopyChangedPages({
        segments: [{ source: mirror.address, destination: memory.address, bytes }],
        pageBytes,
        hashedSide: 'destination',
        updateStoredHashes: false,
        ...buffers,
      });
      await queue.synchronize();
      const indices = await readUint32s(suite.agent, pageList.address, 2);
      expect([...(await readUint32s(suite.agent, pageCountBuffer.address, 1))]).toEqual([2]);
      expect([...indices].sort((left, right) => left - right)).toEqual([1, last]);
      expectSameBytes(await suite.agent.read(memory.address, bytes), data, 'memory restored from the host mirror');
    });

    it('copies and hashes pages of segments whose two sides are aligned differently, through every copy', async () => {
      // Memory 3 bytes and the mirror 8 bytes into their allocations: no copy can move 16-byte units.
      const memory = await suite.allocateWith(randomBytes(bytes + 16, 181));
      const mirror = await suite.allocateWith(randomBytes(bytes + 16, 182));
      const source = memory.address + 3;
      const destination = mirror.address + 8;
      const hashes = await suite.allocateWith(new Uint8Array(pages * 8).fill(0xa5));
      const list = suite.allocate(pages * 4);
      const count = suite.allocate(4);
      const segments = [{ source, destination, bytes }];
      const touch = async (page: number, salt: number) => {
        const start = page * pageBytes;
        const end = Math.min(start + pageBytes, bytes);
        for (const offset of [start, (start + end) >> 1, end - 1]) await suite.agent.write(source + offset, Uint8Array.of((page * 7 + salt) & 0xff));
      };
      const expectMirror = async (what: string) =>
        expectSameBytes(await suite.agent.read(destination, bytes), await suite.agent.read(source, bytes), what);
      const queue = suite.createQueue();
      queue.enqueueCopyChangedPages({ segments, pageBytes, hashedSide: 'source', storedHashesAddress: hashes.address, updateStoredHashes: true, pageListAddress: list.address, pageCountAddress: count.address });
      await queue.synchronize();
      await expectMirror('the mirror after the conditional copy');
      expect([...(await readUint64s(suite.agent, hashes.address, pages))]).toEqual([...referencePageHashes([await suite.agent.read(source, bytes)], pageBytes)]);

      // The list [last, 1], copied without hashes (pages in chunks), then with them (a page per group).
      await suite.agent.write(list.address, uint32Bytes([last, 1]));
      await suite.agent.write(count.address, uint32Bytes([2]));
      for (const withHashes of [false, true]) {
        for (const page of [1, last]) await touch(page, withHashes ? 11 : 5);
        queue.enqueueCopyPageList({ segments, pageBytes, pageListAddress: list.address, pageCountAddress: count.address, ...(withHashes ? { storedHashesAddress: hashes.address } : {}) });
        await queue.synchronize();
        await expectMirror(`the mirror after the page-list copy ${withHashes ? 'with' : 'without'} hashes`);
      }
      expect([...(await readUint64s(suite.agent, hashes.address, pages))]).toEqual([...referencePageHashes([await suite.agent.read(source, bytes)], pageBytes)]);
    });

    it('numbers pages across several segments in order', async () => {
      const secondBytes = 2 * pageBytes + 9;
      const first = await createScenario(suite, bytes, pageBytes, 171);
      const second = await createScenario(suite, secondBytes, pageBytes, 172);
      const secondPages = pageCount(secondBytes, pageBytes);
      const hashes = suite.allocate((pages + secondPages) * 8);
      const queue = suite.createQueue();
      const segments = [
        { source: first.memory.address, destination: first.mirror.address, bytes },
        { source: second.memory.address, destination: second.mirror.address, bytes: secondBytes },
      ];
      queue.enqueueHashPages(
        segments.map((segment) => ({ address: segment.source, bytes: segment.bytes })),
        pageBytes,
        hashes.address,
      );
      await queue.synchronize();
      await touchPage(suite, first.memory, last, pageBytes, 0);
      await touchPage(suite, second.memory, 1, pageBytes, 0);
      await touchPage(suite, second.memory, secondPages - 1, pageBytes, 0);
      const pageList = suite.allocate((pages + secondPages) * 4);
      queue.enqueueCopyChangedPages({
        segments,
        pageBytes,
        hashedSide: 'source',
        storedHashesAddress: hashes.address,
        updateStoredHashes: true,
        pageListAddress: pageList.address,
        pageCountAddress: first.pageCount.address,
      });
      await queue.synchronize();
      const [count] = await readUint32s(suite.agent, first.pageCount.address, 1);
      const indices = [...(await readUint32s(suite.agent, pageList.address, count!))].sort((left, right) => left - right);
      expect(indices).toEqual([last, pages + 1, pages + secondPages - 1]);
      expectSameBytes(await suite.agent.read(second.mirror.address, secondBytes), await suite.agent.read(second.memory.address, secondBytes), 'second mirror');
      expectSameBytes(await suite.agent.read(first.mirror.address, bytes), await suite.agent.read(first.memory.address, bytes), 'first mirror');
    });
  });
}
