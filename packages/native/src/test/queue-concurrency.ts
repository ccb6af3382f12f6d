import { describe, expect, it } from 'vitest';
import { expectSameBytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { fillReference } from './reference-kernels.js';
import { useSuiteRuntime } from './suite-runtime.js';

const delayMilliseconds = 400;

/** Several queues: they overlap, events order them, and the agent waits for all of them. */
export function describeQueueConcurrency(options: ResolvedDriverTestOptions): void {
  describe('queue concurrency', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes, largeBytes } = options.sizes;
    const { faultInjection } = options.capabilities;

    it.skipIf(!faultInjection)("runs another queue's work while one queue's copy is delayed", async () => {
      const { runtime, agent } = suite;
      const data = randomBytes(largeBytes, 61);
      const source = await suite.allocateWith(data);
      const destination = suite.allocate(largeBytes);
      const filled = suite.allocate(smallBytes);
      const slow = suite.createQueue();
      const fast = suite.createQueue();
      runtime.injectFault({ operation: 'copy', count: 1, agentId: agent.id, delayMilliseconds });
      slow.enqueueCopy([{ source: source.address, destination: destination.address, bytes: largeBytes }]);
      const slowDone = slow.recordEvent();
      fast.enqueueKernel(runtime.kernels.fill, { destination: filled.address, bytes: smallBytes, value: 0x5eed1234 });
      await fast.synchronize();
      // Order, not time: the other queue's work is done and visible while the delayed copy is not.
      expect(slowDone.completed, 'the delayed queue finished before the other queue').toBe(false);
      expectSameBytes(await agent.read(filled.address, smallBytes), fillReference(smallBytes, 0x5eed1234), 'the other queue’s fill');
      await slow.synchronize();
      expect(slowDone.completed).toBe(true);
      expectSameBytes(await agent.read(destination.address, largeBytes), data, 'the delayed copy');
    });

    it('orders work across queues with recordEvent / waitForEvent', async () => {
      const { runtime, agent } = suite;
      const data = randomBytes(smallBytes, 71);
      const first = await suite.allocateWith(data);
      const middle = await suite.allocateWith(randomBytes(smallBytes, 72));
      const last = suite.allocate(smallBytes);
      const producer = suite.createQueue();
      const consumer = suite.createQueue();
      // With fault injection the producer's copy is held back, so a consumer that did not wait would copy stale bytes.
      if (faultInjection) runtime.injectFault({ operation: 'copy', count: 1, agentId: agent.id, delayMilliseconds: 150 });
      producer.enqueueCopy([{ source: first.address, destination: middle.address, bytes: smallBytes }]);
      const produced = producer.recordEvent();
      consumer.waitForEvent(produced);
      consumer.enqueueCopy([{ source: middle.address, destination: last.address, bytes: smallBytes }]);
      await consumer.synchronize();
      expect(produced.completed).toBe(true);
      expectSameBytes(await agent.read(last.address, smallBytes), data, 'what the consumer copied');
      await producer.synchronize();
    });

    it.skipIf(!faultInjection)('agent.synchronize waits for every queue of the agent', async () => {
      const { runtime, agent } = suite;
      const buffers = [suite.allocate(smallBytes), suite.allocate(smallBytes)];
      const queues = [suite.createQueue(), suite.createQueue()];
      runtime.injectFault({ operation: 'kernel', count: 2, agentId: agent.id, delayMilliseconds: 100 });
      const events = queues.map((queue, index) => {
        queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[index]!.address, bytes: smallBytes, value: 0x01010101 * (index + 1) });
        return queue.recordEvent();
      });
      await agent.synchronize();
      expect(events.map((event) => event.completed)).toEqual([true, true]);
      for (const [index, buffer] of buffers.entries()) {
        expectSameBytes(await agent.read(buffer.address, smallBytes), fillReference(smallBytes, 0x01010101 * (index + 1)), `buffer ${index}`);
      }
    });

    it('runs many interleaved batches on several queues to the right results', async () => {
      const { runtime, agent } = suite;
      const queues = [suite.createQueue(), suite.createQueue(), suite.createQueue()];
      const buffers = queues.map(() => suite.allocate(smallBytes));
      for (let round = 0; round < 20; round += 1) {
        queues.forEach((queue, index) =>
          queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[index]!.address, bytes: smallBytes, value: round * 16 + index }),
        );
      }
      await Promise.all(queues.map((queue) => queue.synchronize()));
      for (const [index, buffer] of buffers.entries()) {
        expectSameBytes(await agent.read(buffer.address, smallBytes), fillReference(smallBytes, 19 * 16 + index), `buffer ${index}`);
      }
    });
  });
}
