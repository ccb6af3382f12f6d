import { describe, expect, it } from 'vitest';
import { DriverError, OutOfMemoryError } from '../index.js';
import { expectRejects, expectThrows } from './expect-errors.js';
import { expectSameBytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { fillReference } from './reference-kernels.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** Injected faults: how a failure surfaces, what it skips, and that the queue recovers. */
export function describeFaults(options: ResolvedDriverTestOptions): void {
  describe.skipIf(!options.capabilities.faultInjection)('faults', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes, pageBytes } = options.sizes;

    it('fails the batch at the faulted copy: synchronize rejects with a DriverError, later work is skipped, the queue recovers', async () => {
      const { runtime, agent } = suite;
      const data = randomBytes(smallBytes, 241);
      const source = await suite.allocateWith(data);
      const targets = [0, 1, 2].map(() => suite.allocate(smallBytes));
      for (const target of targets) await agent.write(target.address, new Uint8Array(smallBytes));
      const queue = suite.createQueue();
      runtime.injectFault({ operation: 'copy', count: 1 });
      queue.enqueueCopy([{ source: source.address, destination: targets[0]!.address, bytes: smallBytes }]);
      queue.enqueueCopy([{ source: source.address, destination: targets[1]!.address, bytes: smallBytes }]);
      queue.enqueueKernel(runtime.kernels.fill, { destination: targets[2]!.address, bytes: smallBytes, value: 0xffffffff });
      const error = await expectRejects(() => queue.synchronize(), DriverError, 'synchronize after a faulted copy');
      expect(error.code).toBe('injected-fault');
      expect(error.driver).toBe(runtime.driver);
      expect(error.agentId).toBe(agent.id);
      expect(typeof error.operation).toBe('string');
      expect(error.operation.length).toBeGreaterThan(0);
      for (const [index, target] of targets.entries()) {
        expectSameBytes(await agent.read(target.address, smallBytes), new Uint8Array(smallBytes), `target ${index} (skipped)`);
      }
      // The error is cleared: the queue runs new work and synchronizes.
      await queue.synchronize();
      queue.enqueueCopy([{ source: source.address, destination: targets[1]!.address, bytes: smallBytes }]);
      await queue.synchronize();
      expectSameBytes(await agent.read(targets[1]!.address, smallBytes), data, 'a copy after recovery');
    });

    it('lets `after` operations succeed first and fails `count` of them', async () => {
      const { runtime, agent } = suite;
      const buffers = [0, 1, 2, 3].map(() => suite.allocate(smallBytes));
      const queue = suite.createQueue();
      runtime.injectFault({ operation: 'kernel', after: 1, count: 2 });
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[0]!.address, bytes: smallBytes, value: 1 });
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[1]!.address, bytes: smallBytes, value: 2 });
      await expectRejects(() => queue.synchronize(), DriverError, 'the second kernel');
      expectSameBytes(await agent.read(buffers[0]!.address, smallBytes), fillReference(smallBytes, 1), 'the first kernel ran');
      // The second batch hits the second faulted kernel; the third batch runs.
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[2]!.address, bytes: smallBytes, value: 3 });
      await expectRejects(() => queue.synchronize(), DriverError, 'the third kernel');
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[3]!.address, bytes: smallBytes, value: 4 });
      await queue.synchronize();
      expectSameBytes(await agent.read(buffers[3]!.address, smallBytes), fillReference(smallBytes, 4), 'the fourth kernel ran');
    });

    it('fails hashing: hashPages rejects with the DriverError', async () => {
      const { runtime } = suite;
      const buffer = await suite.allocateWith(randomBytes(smallBytes, 251));
      const queue = suite.createQueue();
      runtime.injectFault({ operation: 'hash' });
      const error = await expectRejects(() => queue.hashPages([{ address: buffer.address, bytes: smallBytes }], pageBytes), DriverError, 'hashPages');
      expect(error.code).toBe('injected-fault');
      const hashes = await queue.hashPages([{ address: buffer.address, bytes: smallBytes }], pageBytes);
      expect(hashes.length).toBe(smallBytes / pageBytes);
    });

    it('fails a conditional copy without copying', async () => {
      const { runtime, agent } = suite;
      const memory = await suite.allocateWith(randomBytes(smallBytes, 261));
      const mirror = await suite.allocateWith(new Uint8Array(smallBytes));
      const pages = smallBytes / pageBytes;
      const hashes = await suite.allocateWith(new Uint8Array(pages * 8));
      const pageList = suite.allocate(pages * 4);
      const pageCount = suite.allocate(4);
      const queue = suite.createQueue();
      runtime.injectFault({ operation: 'conditional-copy' });
      queue.enqueueCopyChangedPages({
        segments: [{ source: memory.address, destination: mirror.address, bytes: smallBytes }],
        pageBytes,
        hashedSide: 'source',
        storedHashesAddress: hashes.address,
        updateStoredHashes: true,
        pageListAddress: pageList.address,
        pageCountAddress: pageCount.address,
      });
      const error = await expectRejects(() => queue.synchronize(), DriverError, 'synchronize after a faulted conditional copy');
      expect(error.code).toBe('injected-fault');
      expectSameBytes(await agent.read(mirror.address, smallBytes), new Uint8Array(smallBytes), 'the mirror');
    });

    it("fails 'any' operation, and clearFaults removes pending faults", async () => {
      const { runtime, agent } = suite;
      const buffer = suite.allocate(smallBytes);
      const queue = suite.createQueue();
      runtime.injectFault({ operation: 'any', count: 1 });
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: 5 });
      const error = await expectRejects(() => queue.synchronize(), DriverError, "a kernel under an 'any' fault");
      expect(error.code).toBe('injected-fault');
      runtime.injectFault({ operation: 'kernel', count: 100 });
      runtime.clearFaults();
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: 6 });
      await queue.synchronize();
      expectSameBytes(await agent.read(buffer.address, smallBytes), fillReference(smallBytes, 6), 'a kernel after clearFaults');
    });

    it('keeps a failure on one queue from touching another queue', async () => {
      const { runtime, agent } = suite;
      const buffers = [suite.allocate(smallBytes), suite.allocate(smallBytes)];
      const failing = suite.createQueue();
      const healthy = suite.createQueue();
      runtime.injectFault({ operation: 'copy' });
      failing.enqueueCopy([{ source: buffers[1]!.address, destination: buffers[0]!.address, bytes: smallBytes }]);
      await expectRejects(() => failing.synchronize(), DriverError, 'the failing queue');
      healthy.enqueueKernel(runtime.kernels.fill, { destination: buffers[1]!.address, bytes: smallBytes, value: 9 });
      await healthy.synchronize();
      expectSameBytes(await agent.read(buffers[1]!.address, smallBytes), fillReference(smallBytes, 9), 'the healthy queue');
    });

    it('makes allocate and enqueueAllocate throw OutOfMemoryError under an allocate fault', () => {
      const { runtime, agent } = suite;
      runtime.injectFault({ operation: 'allocate', count: 1 });
      const error = expectThrows(() => suite.allocate(smallBytes), OutOfMemoryError, 'allocate under a fault');
      expect(error.agentId).toBe(agent.id);
      expect(error.bytes).toBe(smallBytes);
      suite.allocate(smallBytes);
      if (options.capabilities.streamOrderedMemory) {
        const queue = suite.createQueue();
        runtime.injectFault({ operation: 'allocate', count: 1 });
        expectThrows(() => queue.enqueueAllocate(smallBytes), OutOfMemoryError, 'enqueueAllocate under a fault');
        queue.enqueueFree(queue.enqueueAllocate(smallBytes));
      }
    });

    it.skipIf(!options.capabilities.multipleAgents)('applies a fault only to the agent it names', async () => {
      const { runtime } = suite;
      const [first, second] = runtime.agents;
      expect(second, 'multipleAgents needs at least two agents').toBeDefined();
      const buffers = [suite.allocate(smallBytes, first), suite.allocate(smallBytes, second)];
      const queues = [suite.createQueue(first), suite.createQueue(second)];
      runtime.injectFault({ operation: 'kernel', agentId: second!.id, count: 1 });
      queues.forEach((queue, index) =>
        queue.enqueueKernel(runtime.kernels.fill, { destination: buffers[index]!.address, bytes: smallBytes, value: 10 + index }),
      );
      await queues[0]!.synchronize();
      const error = await expectRejects(() => queues[1]!.synchronize(), DriverError, 'the named agent');
      expect(error.agentId).toBe(second!.id);
      expectSameBytes(await first!.read(buffers[0]!.address, smallBytes), fillReference(smallBytes, 10), 'the other agent');
    });
  });
}
