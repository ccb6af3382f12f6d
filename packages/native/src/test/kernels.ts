import { describe, expect, it } from 'vitest';
import { expectSameBytes, readFloat32s } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { bytesOf, randomBytes, randomFloat32 } from './random-data.js';
import {
  exactSum,
  fillReference,
  scatterWriteChoosesPage,
  scatterWriteReference,
  stencilReference,
  triadReference,
} from './reference-kernels.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** What each built-in kernel computes, bit for bit against the references (accumulate: within float error). */
export function describeKernels(options: ResolvedDriverTestOptions): void {
  describe('built-in kernels', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes, pageBytes } = options.sizes;

    it('fill repeats the 32-bit pattern over exactly the range, a short tail getting its first bytes', async () => {
      const data = randomBytes(smallBytes, 181);
      const buffer = await suite.allocateWith(data);
      const queue = suite.createQueue();
      const offset = 5;
      const bytes = smallBytes - offset - 6; // ends 3 bytes into a pattern
      queue.enqueueKernel(suite.runtime.kernels.fill, { destination: buffer.address + offset, bytes, value: 0xa1b2c3d4 });
      await queue.synchronize();
      const expected = data.slice();
      expected.set(fillReference(bytes, 0xa1b2c3d4), offset);
      expectSameBytes(await suite.agent.read(buffer.address, smallBytes), expected, 'buffer after fill');
    });

    it('accepts integer arguments as bigints', async () => {
      const buffer = suite.allocate(64);
      const queue = suite.createQueue();
      queue.enqueueKernel(suite.runtime.kernels.fill, { destination: buffer.address, bytes: 64n, value: 0xffffffffn });
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(buffer.address, 64), fillReference(64, 0xffffffff), 'buffer after fill');
    });

    for (const fraction of [0.37, 0, 1]) {
      it(`scatterWrite rewrites the whole words of the chosen pages (fraction ${fraction})`, async () => {
        const bytes = smallBytes + pageBytes + 13; // the last page is short and ends in a partial word
        const data = randomBytes(bytes, 191);
        const sourceData = randomBytes(1003, 192); // 125 whole words and 3 bytes that the digest ignores
        const buffer = await suite.allocateWith(data);
        const source = await suite.allocateWith(sourceData);
        const seed = 0x9e3779b97f4a7c15n; // above 2^53: a bigint argument
        const queue = suite.createQueue();
        queue.enqueueKernel(suite.runtime.kernels.scatterWrite, {
          buffer: buffer.address,
          bytes,
          pageBytes,
          fraction,
          seed,
          source: source.address,
          sourceBytes: sourceData.byteLength,
        });
        await queue.synchronize();
        const expected = scatterWriteReference(data, pageBytes, fraction, seed, sourceData);
        expectSameBytes(await suite.agent.read(buffer.address, bytes), expected, 'buffer after scatterWrite');
        expectSameBytes(await suite.agent.read(source.address, sourceData.byteLength), sourceData, 'source after scatterWrite');
        if (fraction > 0 && fraction < 1) {
          const pages = Math.ceil(bytes / pageBytes);
          const chosen = Array.from({ length: pages }, (_, page) => page).filter((page) => scatterWriteChoosesPage(page, fraction, seed)).length;
          expect(chosen, 'the test chose a fraction that picks some pages but not all').toBeGreaterThan(0);
          expect(chosen).toBeLessThan(pages);
        }
      });
    }

    it('scatterWrite with sourceBytes 0 uses a digest of 0, from an offset inside the allocation', async () => {
      const bytes = 4 * pageBytes;
      const data = randomBytes(bytes + 64, 201);
      const buffer = await suite.allocateWith(data);
      const queue = suite.createQueue();
      queue.enqueueKernel(suite.runtime.kernels.scatterWrite, {
        buffer: buffer.address + 64,
        bytes,
        pageBytes,
        fraction: 0.5,
        seed: 42,
        source: buffer.address,
        sourceBytes: 0,
      });
      await queue.synchronize();
      const expected = data.slice();
      expected.set(scatterWriteReference(data.subarray(64), pageBytes, 0.5, 42n, new Uint8Array(0)), 64);
      expectSameBytes(await suite.agent.read(buffer.address, bytes + 64), expected, 'buffer after scatterWrite');
    });

    it('triad computes a[i] = b[i] + scalar * c[i] in float32', async () => {
      const count = smallBytes / 4 - 3;
      const b = randomFloat32(count, 211, -1000, 1000);
      const c = randomFloat32(count, 212, -1, 1);
      const scalar = 0.3;
      const a = suite.allocate(count * 4);
      const bBuffer = await suite.allocateWith(bytesOf(b));
      const cBuffer = await suite.allocateWith(bytesOf(c));
      const queue = suite.createQueue();
      queue.enqueueKernel(suite.runtime.kernels.triad, { a: a.address, b: bBuffer.address, c: cBuffer.address, scalar, count });
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(a.address, count * 4), bytesOf(triadReference(b, c, scalar)), 'a after triad');
    });

    it('stencil averages neighbours in place from the old values, ends unchanged', async () => {
      const count = smallBytes / 4 - 1;
      const values = randomFloat32(count, 221, -10, 10);
      const buffer = await suite.allocateWith(bytesOf(values));
      const queue = suite.createQueue();
      queue.enqueueKernel(suite.runtime.kernels.stencil, { buffer: buffer.address, count });
      queue.enqueueKernel(suite.runtime.kernels.stencil, { buffer: buffer.address, count });
      await queue.synchronize();
      const expected = stencilReference(stencilReference(values));
      expectSameBytes(await suite.agent.read(buffer.address, count * 4), bytesOf(expected), 'buffer after two stencils');
    });

    it('accumulate sums close to the exact sum, and its bits differ across runs', async () => {
      // 2^16 values with full mantissas around 1: a float32 sum of ~65536 rounds differently in every order.
      const count = 1 << 16;
      const values = randomFloat32(count, 231, 0.5, 1.5);
      const input = await suite.allocateWith(bytesOf(values));
      const runs = 24;
      const output = suite.allocate(runs * 4);
      const queue = suite.createQueue();
      for (let run = 0; run < runs; run += 1) {
        queue.enqueueKernel(suite.runtime.kernels.accumulate, { input: input.address, count, output: output.address + run * 4 });
      }
      await queue.synchronize();
      const sums = await readFloat32s(suite.agent, output.address, runs);
      const exact = exactSum(values);
      // Any summation order of n terms errs by at most (n - 1) * 2^-24 * sum|x| (all terms positive here).
      const bound = (count - 1) * 2 ** -24 * exact;
      for (const sum of sums) expect(Math.abs(sum - exact)).toBeLessThanOrEqual(bound);
      expect(new Set(sums).size, `distinct results over ${runs} runs: ${[...new Set(sums)].join(', ')}`).toBeGreaterThan(1);
    });
  });
}
