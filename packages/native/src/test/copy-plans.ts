import { describe, expect, it } from 'vitest';
import type { CopySegment } from '../index.js';
import { expectSameBytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { createRandom, randomBytes } from './random-data.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** A plan of `count` segments that moves shuffled, unevenly sized chunks of `bytes`; and the bytes it should produce. */
function shuffledPlan(source: number, destination: number, data: Uint8Array, count: number, seed: number) {
  const next = createRandom(seed);
  const cuts = new Set<number>([0, data.byteLength]);
  while (cuts.size < count + 1) cuts.add(1 + (next() % (data.byteLength - 1)));
  const bounds = [...cuts].sort((left, right) => left - right);
  const chunks = bounds.slice(1).map((end, index) => ({ start: bounds[index]!, bytes: end - bounds[index]! }));
  // Destination order: chunks reversed, so each segment moves its bytes elsewhere.
  const expected = new Uint8Array(data.byteLength);
  const plan: CopySegment[] = [];
  let offset = 0;
  for (const chunk of [...chunks].reverse()) {
    plan.push({ source: source + chunk.start, destination: destination + offset, bytes: chunk.bytes });
    expected.set(data.subarray(chunk.start, chunk.start + chunk.bytes), offset);
    offset += chunk.bytes;
  }
  // Execute the segments in a shuffled order; the result does not depend on it.
  for (let index = plan.length - 1; index > 0; index -= 1) {
    const other = next() % (index + 1);
    [plan[index], plan[other]] = [plan[other]!, plan[index]!];
  }
  return { plan, expected };
}

/** Copy plans: many segments per call, every direction, order within a queue. */
export function describeCopyPlans(options: ResolvedDriverTestOptions): void {
  describe('copy plans', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes, largeBytes } = options.sizes;

    it('executes many segments of one plan, device to device', async () => {
      const data = randomBytes(largeBytes, 21);
      const source = await suite.allocateWith(data);
      const destination = suite.allocate(largeBytes);
      const { plan, expected } = shuffledPlan(source.address, destination.address, data, 1000, 22);
      const queue = suite.createQueue();
      queue.enqueueCopy(plan);
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(destination.address, largeBytes), expected, 'destination after a 1000-segment plan');
      expectSameBytes(await suite.agent.read(source.address, largeBytes), data, 'source after the plan');
    });

    it('executes a plan of one 8-byte segment per word, scattering every word', async () => {
      const data = randomBytes(smallBytes, 25);
      const source = await suite.allocateWith(data);
      const destination = suite.allocate(smallBytes);
      const words = smallBytes / 8;
      const stride = 2 * Math.floor(words / 5) + 1; // odd, so word -> word * stride mod words is a permutation
      const plan: CopySegment[] = [];
      const expected = new Uint8Array(smallBytes);
      for (let word = 0; word < words; word += 1) {
        const target = (word * stride) % words;
        plan.push({ source: source.address + word * 8, destination: destination.address + target * 8, bytes: 8 });
        expected.set(data.subarray(word * 8, word * 8 + 8), target * 8);
      }
      const queue = suite.createQueue();
      queue.enqueueCopy(plan);
      await queue.synchronize();
      expectSameBytes(await suite.agent.read(destination.address, smallBytes), expected, `destination after a ${words}-segment plan`);
    });

    for (const pinned of [true, false]) {
      const kind = pinned ? 'pinned' : 'pageable';
      it(`copies host (${kind}) -> device -> host (${kind}) in segments`, async () => {
        const data = randomBytes(smallBytes + 5, 31);
        const upload = suite.allocateHost(data.byteLength, pinned);
        const download = suite.allocateHost(data.byteLength, pinned);
        upload.view().set(data);
        download.view().fill(0);
        const device = suite.allocate(data.byteLength);
        const queue = suite.createQueue();
        const up = shuffledPlan(upload.address, device.address, data, 17, 32);
        queue.enqueueCopy(up.plan);
        queue.enqueueCopy([{ source: device.address, destination: download.address, bytes: data.byteLength }]);
        await queue.synchronize();
        expectSameBytes(await suite.agent.read(device.address, data.byteLength), up.expected, 'device after upload');
        expectSameBytes(download.view(), up.expected, 'host buffer after download');
      });
    }

    it('runs the plans of one queue in order: each sees the result of the one before', async () => {
      const data = randomBytes(smallBytes, 41);
      const buffers = [await suite.allocateWith(data)];
      for (let index = 0; index < 4; index += 1) buffers.push(await suite.allocateWith(randomBytes(smallBytes, 42 + index)));
      const queue = suite.createQueue();
      for (let index = 1; index < buffers.length; index += 1) {
        // Two segments, halves swapped, so a plan that ran early would copy stale bytes.
        const half = smallBytes / 2;
        const from = buffers[index - 1]!.address;
        const to = buffers[index]!.address;
        queue.enqueueCopy([
          { source: from, destination: to + half, bytes: half },
          { source: from + half, destination: to, bytes: half },
        ]);
      }
      await queue.synchronize();
      // Four swaps of halves give back the original order.
      expectSameBytes(await suite.agent.read(buffers[4]!.address, smallBytes), data, 'last buffer of the chain');
      const swapped = new Uint8Array(smallBytes);
      swapped.set(data.subarray(smallBytes / 2), 0);
      swapped.set(data.subarray(0, smallBytes / 2), smallBytes / 2);
      expectSameBytes(await suite.agent.read(buffers[3]!.address, smallBytes), swapped, 'third buffer of the chain');
    });

    it('copies within one allocation, between disjoint parts, at unaligned offsets', async () => {
      const data = randomBytes(smallBytes, 51);
      const buffer = await suite.allocateWith(data);
      const queue = suite.createQueue();
      const third = Math.floor(smallBytes / 3);
      queue.enqueueCopy([{ source: buffer.address + 1, destination: buffer.address + 2 * third + 3, bytes: third - 7 }]);
      await queue.synchronize();
      const expected = data.slice();
      expected.set(data.subarray(1, third - 6), 2 * third + 3);
      expectSameBytes(await suite.agent.read(buffer.address, smallBytes), expected, 'buffer after an in-allocation copy');
    });

    it('accepts an empty plan', async () => {
      const queue = suite.createQueue();
      queue.enqueueCopy([]);
      await queue.synchronize();
    });
  });
}
