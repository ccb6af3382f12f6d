import { describe, expect, it } from 'vitest';
import { ArgumentError, type CopySegment, type DeviceAllocation } from '../index.js';
import { expectRejects, expectThrows } from './expect-errors.js';
import { expectSameBytes, readUint32s, uint32Bytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** Invalid arguments: refused with ArgumentError before anything is enqueued. */
export function describeBadInput(options: ResolvedDriverTestOptions): void {
  describe('bad input', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes, pageBytes } = options.sizes;
    const pages = smallBytes / pageBytes;

    /**
     * Two seeded allocations, one more for spanning, and a freed one. Allocate anything else the
     * test needs before calling this: a later allocation may reuse the freed range.
     */
    async function buffers() {
      const source = await suite.allocateWith(randomBytes(smallBytes, 291));
      const destination = await suite.allocateWith(new Uint8Array(smallBytes));
      const neighbour = suite.allocate(smallBytes);
      const freed = suite.allocate(smallBytes);
      freed.free();
      expect(suite.agent.findAllocation(freed.address), 'the freed range is free').toBeUndefined();
      const freedHost = suite.runtime.allocateHost(smallBytes, { pinned: true });
      freedHost.free();
      const [lower, upper] = [source, neighbour].sort((left, right) => left.address - right.address) as [DeviceAllocation, DeviceAllocation];
      return { source, destination, freed, freedHost, lower, upper };
    }

    it('refuses copy plans with a bad range, enqueueing none of the plan', async () => {
      const { source, destination, freed, freedHost, lower, upper } = await buffers();
      const valid: CopySegment = { source: source.address, destination: destination.address, bytes: 64 };
      const cases: [string, CopySegment][] = [
        ['source past the end of its allocation', { source: source.address + smallBytes - 8, destination: destination.address + 64, bytes: 16 }],
        ['destination past the end of its allocation', { source: source.address, destination: destination.address + smallBytes - 8, bytes: 16 }],
        ['source starting before its allocation', { source: source.address - 1, destination: destination.address + 64, bytes: 16 }],
        ['source spanning two allocations', { source: lower.address + lower.bytes - 8, destination: destination.address, bytes: upper.address + 8 - (lower.address + lower.bytes - 8) }],
        ['source in a freed allocation', { source: freed.address, destination: destination.address + 64, bytes: 16 }],
        ['destination in a freed allocation', { source: source.address, destination: freed.address, bytes: 16 }],
        ['source in a freed host buffer', { source: freedHost.address, destination: destination.address + 64, bytes: 16 }],
        ['an address in no allocation', { source: 4096, destination: destination.address + 64, bytes: 16 }],
        ['negative bytes', { source: source.address, destination: destination.address + 64, bytes: -1 }],
        ['NaN bytes', { source: source.address, destination: destination.address + 64, bytes: Number.NaN }],
        ['infinite bytes', { source: source.address, destination: destination.address + 64, bytes: Number.POSITIVE_INFINITY }],
        ['fractional bytes', { source: source.address, destination: destination.address + 64, bytes: 1.5 }],
        ['huge bytes', { source: source.address, destination: destination.address + 64, bytes: 2 ** 60 }],
        ['bytes beyond the safe integers', { source: source.address, destination: destination.address + 64, bytes: Number.MAX_SAFE_INTEGER + 2 }],
        ['a NaN address', { source: Number.NaN, destination: destination.address + 64, bytes: 16 }],
        ['a negative address', { source: -source.address, destination: destination.address + 64, bytes: 16 }],
        ['a fractional address', { source: source.address + 0.5, destination: destination.address + 64, bytes: 16 }],
      ];
      const queue = suite.createQueue();
      for (const [what, segment] of cases) {
        const error = expectThrows(() => queue.enqueueCopy([valid, segment]), ArgumentError, what);
        expect(typeof error.argument, `${what}: argument`).toBe('string');
      }
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(destination.address, smallBytes), new Uint8Array(smallBytes), 'destination: no segment of a refused plan ran');
    });

    it('refuses hashing with a bad range, page size or hash buffer', async () => {
      const { source, destination, freed } = await buffers();
      const queue = suite.createQueue();
      const range = [{ address: source.address, bytes: smallBytes }];
      const cases: [string, () => unknown][] = [
        ['range past the end', () => queue.enqueueHashPages([{ address: source.address + 8, bytes: smallBytes }], pageBytes, destination.address)],
        ['range in a freed allocation', () => queue.enqueueHashPages([{ address: freed.address, bytes: 64 }], pageBytes, destination.address)],
        ['NaN range bytes', () => queue.enqueueHashPages([{ address: source.address, bytes: Number.NaN }], pageBytes, destination.address)],
        ['pageBytes 0', () => queue.enqueueHashPages(range, 0, destination.address)],
        ['negative pageBytes', () => queue.enqueueHashPages(range, -pageBytes, destination.address)],
        ['NaN pageBytes', () => queue.enqueueHashPages(range, Number.NaN, destination.address)],
        ['fractional pageBytes', () => queue.enqueueHashPages(range, pageBytes + 0.5, destination.address)],
        ['a hash buffer without room for every page', () => queue.enqueueHashPages(range, pageBytes, destination.address + smallBytes - pages * 8 + 8)],
        ['a hash buffer in a freed allocation', () => queue.enqueueHashPages(range, pageBytes, freed.address)],
      ];
      for (const [what, action] of cases) expectThrows(action, ArgumentError, what);
      await expectRejects(() => queue.hashPages([{ address: source.address - 8, bytes: 64 }], pageBytes), ArgumentError, 'hashPages of a bad range');
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(destination.address, smallBytes), new Uint8Array(smallBytes), 'hash buffer: nothing was written');
    });

    it('refuses conditional and page-list copies with bad ranges or buffers', async () => {
      const hashes = suite.allocate(pages * 8);
      const pageList = suite.allocate(pages * 4);
      const pageCount = await suite.allocateWith(uint32Bytes([12345]));
      const { source, destination, freed } = await buffers();
      const queue = suite.createQueue();
      const good = {
        segments: [{ source: source.address, destination: destination.address, bytes: smallBytes }],
        pageBytes,
        hashedSide: 'source' as const,
        storedHashesAddress: hashes.address,
        updateStoredHashes: true,
        pageListAddress: pageList.address,
        pageCountAddress: pageCount.address,
      };
      const cases: [string, typeof good | Record<string, unknown>][] = [
        ['a segment past the end', { ...good, segments: [{ source: source.address, destination: destination.address + 8, bytes: smallBytes }] }],
        ['a segment in a freed allocation', { ...good, segments: [{ source: freed.address, destination: destination.address, bytes: 64 }] }],
        ['stored hashes without room for every page', { ...good, storedHashesAddress: hashes.address + 8 }],
        ['a page list without room for every page', { ...good, pageListAddress: pageList.address + 4 }],
        ['a page count past the end', { ...good, pageCountAddress: pageCount.address + 2 }],
        ['pageBytes 0', { ...good, pageBytes: 0 }],
        ['an unknown hashedSide', { ...good, hashedSide: 'both' }],
      ];
      for (const [what, copy] of cases) {
        expectThrows(() => queue.enqueueCopyChangedPages(copy as typeof good), ArgumentError, `conditional copy: ${what}`);
      }
      const list = { segments: good.segments, pageBytes, pageListAddress: pageList.address, pageCountAddress: pageCount.address };
      expectThrows(() => queue.enqueueCopyPageList({ ...list, pageListAddress: pageList.address + 4 }), ArgumentError, 'page-list copy: a short page list');
      expectThrows(() => queue.enqueueCopyPageList({ ...list, storedHashesAddress: pageList.address }), ArgumentError, 'page-list copy: stored hashes without room for every page');
      expectThrows(() => queue.enqueueCopyPageList({ ...list, segments: [{ source: freed.address, destination: destination.address, bytes: 64 }] }), ArgumentError, 'page-list copy: a freed segment');
      if (suite.runtime.compactPageLists) {
        const compact = { address: hashes.address, pages: 1, side: 'destination' as const };
        const compactCases: [string, Record<string, unknown>][] = [
          ['both stored hashes and a compact buffer', { ...list, storedHashesAddress: hashes.address, compact }],
          ['a compact buffer without room for its pages', { ...list, compact: { ...compact, pages: pages * 8 } }],
          ['a compact buffer of 0 pages', { ...list, compact: { ...compact, pages: 0 } }],
          ['an unknown compact side', { ...list, compact: { ...compact, side: 'both' } }],
          ['an unknown compact option', { ...list, compact: { ...compact, stride: 2 } }],
        ];
        for (const [what, copy] of compactCases) {
          expectThrows(() => queue.enqueueCopyPageList(copy as typeof list), ArgumentError, `page-list copy: ${what}`);
        }
      }
      await queue.synchronize();
      expect([...(await readUint32s(suite.agent, pageCount.address, 1))], 'the page count was not written').toEqual([12345]);
      expectSameBytes(await suite.agent.read(destination.address, smallBytes), new Uint8Array(smallBytes), 'destination');
    });

    it('refuses kernel launches with missing, unknown, out-of-range or overreaching arguments', async () => {
      const { source, destination } = await buffers();
      const { kernels } = suite.runtime;
      const queue = suite.createQueue();
      const floats = smallBytes / 4;
      const cases: [string, () => unknown][] = [
        ['a missing argument', () => queue.enqueueKernel(kernels.fill, { destination: destination.address, bytes: 64 })],
        ['an unknown argument', () => queue.enqueueKernel(kernels.fill, { destination: destination.address, bytes: 64, value: 1, colour: 2 })],
        ['a fill past the end of its allocation', () => queue.enqueueKernel(kernels.fill, { destination: destination.address, bytes: smallBytes + 1, value: 1 })],
        ['a u32 above 2^32 - 1', () => queue.enqueueKernel(kernels.fill, { destination: destination.address, bytes: 64, value: 2 ** 32 })],
        ['a NaN count', () => queue.enqueueKernel(kernels.stencil, { buffer: destination.address, count: Number.NaN })],
        ['a negative count', () => queue.enqueueKernel(kernels.stencil, { buffer: destination.address, count: -1 })],
        ['a triad count past the end of a', () => queue.enqueueKernel(kernels.triad, { a: destination.address, b: source.address, c: source.address, scalar: 1, count: floats + 1 })],
        ['a pointer in no allocation', () => queue.enqueueKernel(kernels.stencil, { buffer: 4096, count: 4 })],
      ];
      for (const [what, action] of cases) expectThrows(action, ArgumentError, what);
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(destination.address, smallBytes), new Uint8Array(smallBytes), 'destination: no refused kernel ran');
    });

    it('refuses bad sizes of allocations and bad ranges of read and write', async () => {
      const { agent } = suite;
      for (const bytes of [-1, Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
        expectThrows(() => suite.allocate(bytes), ArgumentError, `allocate(${bytes})`);
        expectThrows(() => suite.allocateHost(bytes, true), ArgumentError, `allocateHost(${bytes})`);
      }
      const buffer = suite.allocate(smallBytes);
      await expectRejects(() => agent.read(buffer.address + smallBytes - 4, 8), ArgumentError, 'read past the end');
      await expectRejects(() => agent.write(buffer.address + smallBytes - 4, new Uint8Array(8)), ArgumentError, 'write past the end');
      if (options.capabilities.streamOrderedMemory) {
        const queue = suite.createQueue();
        expectThrows(() => queue.enqueueAllocate(-1), ArgumentError, 'enqueueAllocate(-1)');
        const ordered = queue.enqueueAllocate(64);
        queue.enqueueFree(ordered);
        expectThrows(() => queue.enqueueFree(ordered), ArgumentError, 'enqueueFree of a freed stream-ordered allocation');
        expectThrows(
          () => queue.enqueueCopy([{ source: buffer.address, destination: ordered.address, bytes: 64 }]),
          ArgumentError,
          'a copy into a freed stream-ordered allocation',
        );
        await queue.synchronize();
      }
    });
  });
}
