import { describe, expect, it } from 'vitest';
import { differingIndices, readUint64s } from './memory-access.js';
import { oddLength, pageCount, type ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { mix64, pageHash } from '../index.js';
import { referencePageHashes, specificationMix64, specificationPageHash } from './reference-hashes.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** Page hashing: equal to the TypeScript reference, and sensitive to every byte of exactly one page. */
export function describeHashing(options: ResolvedDriverTestOptions): void {
  describe('page hashing', () => {
    const suite = useSuiteRuntime(options);
    const { pageBytes, largeBytes } = options.sizes;
    const bytes = oddLength(options);
    const pages = pageCount(bytes, pageBytes);

    it("the package's TypeScript mix64 and pageHash follow the documented algorithm", () => {
      // splitmix64 seeded with 0 outputs mix64(k * golden gamma): known answers.
      expect(mix64(0x9e3779b97f4a7c15n)).toBe(0xe220a8397b1dcdafn);
      expect(mix64(0x3c6ef372fe94f82an)).toBe(0x6e789e6aa1b965f4n);
      for (const value of [0n, 1n, 0xffffffffffffffffn, 0x0123456789abcdefn]) expect(mix64(value)).toBe(specificationMix64(value));
      for (const length of [1, 7, 8, 9, 64, pageBytes - 3, pageBytes]) {
        const page = randomBytes(length, 75 + length);
        expect(pageHash(page), `a page of ${length} bytes`).toBe(specificationPageHash(page));
      }
    });

    it('equals the TypeScript pageHash, page by page, the last page short', async () => {
      const data = randomBytes(bytes, 81);
      const buffer = await suite.allocateWith(data);
      const queue = suite.createQueue();
      const hashes = await queue.hashPages([{ address: buffer.address, bytes }], pageBytes);
      expect(hashes).toBeInstanceOf(BigUint64Array);
      expect(hashes.length).toBe(pages);
      expect([...hashes]).toEqual([...referencePageHashes([data], pageBytes)]);
    });

    it('numbers pages per range in order across several ranges, including unaligned ones', async () => {
      const first = randomBytes(bytes, 91);
      const second = randomBytes(3 * pageBytes + 1, 92);
      const a = await suite.allocateWith(first);
      const b = await suite.allocateWith(second);
      const ranges = [
        { address: b.address + 1, bytes: second.byteLength - 1 },
        { address: a.address, bytes },
        { address: b.address, bytes: 8 },
        { address: a.address + 13, bytes: pageBytes + 7 },
      ];
      const expected = referencePageHashes(
        [second.subarray(1), first, second.subarray(0, 8), first.subarray(13, 13 + pageBytes + 7)],
        pageBytes,
      );
      const queue = suite.createQueue();
      const hashes = await queue.hashPages(ranges, pageBytes);
      expect(hashes.length).toBe(pageCount(second.byteLength - 1, pageBytes) + pages + 1 + 2);
      expect([...hashes]).toEqual([...expected]);
    });

    for (const pinned of [true, false]) {
      it(`hashes a ${pinned ? 'pinned' : 'pageable'} host buffer like device memory`, async () => {
        const data = randomBytes(bytes, 95);
        const host = suite.allocateHost(bytes, pinned);
        host.view().set(data);
        const queue = suite.createQueue();
        const hashes = await queue.hashPages([{ address: host.address, bytes }], pageBytes);
        expect([...hashes]).toEqual([...referencePageHashes([data], pageBytes)]);
      });
    }

    it('hashes into device memory with enqueueHashPages, the same values as hashPages', async () => {
      const data = randomBytes(bytes, 101);
      const buffer = await suite.allocateWith(data);
      const stored = suite.allocate(pages * 8);
      const queue = suite.createQueue();
      queue.enqueueHashPages([{ address: buffer.address, bytes }], pageBytes, stored.address);
      await queue.synchronize();
      expect([...(await readUint64s(suite.agent, stored.address, pages))]).toEqual([...referencePageHashes([data], pageBytes)]);
    });

    it('changes exactly the hash of the page holding a changed byte, and back when restored', async () => {
      const data = randomBytes(bytes, 111);
      const buffer = await suite.allocateWith(data);
      const queue = suite.createQueue();
      const range = [{ address: buffer.address, bytes }];
      const original = await queue.hashPages(range, pageBytes);
      const positions = [0, 7, 8, pageBytes - 1, pageBytes, 2 * pageBytes + 333, (pages - 1) * pageBytes - 1, (pages - 1) * pageBytes, bytes - 2, bytes - 1];
      for (const position of positions) {
        const old = data[position]!;
        for (const flipped of [old ^ 0x01, old ^ 0x80]) {
          await suite.agent.write(buffer.address + position, Uint8Array.of(flipped));
          const changed = await queue.hashPages(range, pageBytes);
          expect(differingIndices(original, changed), `byte ${position} set to ${flipped}`).toEqual([Math.floor(position / pageBytes)]);
        }
        await suite.agent.write(buffer.address + position, Uint8Array.of(old));
        expect(differingIndices(original, await queue.hashPages(range, pageBytes)), `byte ${position} restored`).toEqual([]);
      }
    });

    it('distinguishes a page of zeros from a shorter page of zeros (the length is hashed)', async () => {
      const buffer = await suite.allocateWith(new Uint8Array(2 * pageBytes));
      const queue = suite.createQueue();
      const hashes = await queue.hashPages(
        [
          { address: buffer.address, bytes: pageBytes },
          { address: buffer.address, bytes: pageBytes - 8 },
          { address: buffer.address, bytes: pageBytes - 1 },
        ],
        pageBytes,
      );
      expect(new Set(hashes).size).toBe(3);
      expect([...hashes]).toEqual([...referencePageHashes([new Uint8Array(pageBytes), new Uint8Array(pageBytes - 8), new Uint8Array(pageBytes - 1)], pageBytes)]);
    });

    it('hashes a large range, agreeing with the reference on sampled pages', async () => {
      const data = randomBytes(largeBytes - 3, 121);
      const buffer = await suite.allocateWith(data);
      const queue = suite.createQueue();
      const hashes = await queue.hashPages([{ address: buffer.address, bytes: data.byteLength }], pageBytes);
      const largePages = pageCount(data.byteLength, pageBytes);
      expect(hashes.length).toBe(largePages);
      for (const page of [0, 1, Math.floor(largePages / 3), Math.floor(largePages / 2) + 1, largePages - 2, largePages - 1]) {
        const start = page * pageBytes;
        const expected = referencePageHashes([data.subarray(start, Math.min(start + pageBytes, data.byteLength))], pageBytes);
        expect(hashes[page], `page ${page}`).toBe(expected[0]);
      }
      expect(new Set(hashes).size, 'distinct random pages have distinct hashes').toBe(largePages);
    });
  });
}
