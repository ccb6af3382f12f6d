import { describe, expect, it } from 'vitest';
import { ArgumentError, DisposedError, type Runtime } from '../index.js';
import { expectRejects, expectThrows } from './expect-errors.js';
import { expectSameBytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { fillReference } from './reference-kernels.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** Disposing twice, and what using a disposed (or freed) object does. */
export function describeDispose(options: ResolvedDriverTestOptions): void {
  describe('dispose', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes } = options.sizes;

    /** Opens a runtime of the test's own, disposed at the end whatever happens. */
    async function withOwnRuntime(action: (runtime: Runtime) => Promise<void>): Promise<void> {
      const runtime = await options.open();
      try {
        await action(runtime);
      } finally {
        await runtime.dispose();
      }
    }

    it('disposes a runtime twice without error, and refuses use afterwards with DisposedError', async () => {
      await withOwnRuntime(async (runtime) => {
        const agent = runtime.agents[0]!;
        const queue = agent.createQueue();
        const allocation = agent.allocate(smallBytes);
        await runtime.dispose();
        await runtime.dispose();
        await runtime[Symbol.asyncDispose]();
        const error = expectThrows(() => agent.allocate(64), DisposedError, 'agent.allocate after dispose');
        expect(typeof error.objectName).toBe('string');
        expect(error.objectName.length).toBeGreaterThan(0);
        expectThrows(() => agent.createQueue(), DisposedError, 'agent.createQueue after dispose');
        expectThrows(() => runtime.allocateHost(64, { pinned: false }), DisposedError, 'runtime.allocateHost after dispose');
        expectThrows(
          () => queue.enqueueKernel(runtime.kernels.fill, { destination: allocation.address, bytes: 64, value: 0 }),
          DisposedError,
          'queue.enqueueKernel after runtime dispose',
        );
        await expectRejects(() => agent.read(allocation.address, 8), DisposedError, 'agent.read after dispose');
        await expectRejects(() => agent.synchronize(), DisposedError, 'agent.synchronize after dispose');
        await expectRejects(() => queue.synchronize(), DisposedError, 'queue.synchronize after runtime dispose');
      });
    });

    it('runtime dispose frees every allocation it owns', async () => {
      await withOwnRuntime(async (runtime) => {
        const device = runtime.agents[0]!.allocate(smallBytes);
        const host = runtime.allocateHost(smallBytes, { pinned: true });
        await runtime.dispose();
        expect(device.freed).toBe(true);
        expect(host.freed).toBe(true);
      });
    });

    it.skipIf(!options.capabilities.faultInjection)('runtime dispose waits for queued work and joins its threads', async () => {
      await withOwnRuntime(async (runtime) => {
        const agent = runtime.agents[0]!;
        const queue = agent.createQueue();
        const buffer = agent.allocate(smallBytes);
        // The fill is held back long enough that it is still queued when dispose is called.
        runtime.injectFault({ operation: 'kernel', count: 1, delayMilliseconds: 200 });
        queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: 7 });
        const reached = queue.recordEvent();
        const settled: string[] = [];
        const waited = reached.synchronize().then(
          () => void settled.push('resolved'),
          (error: unknown) => void settled.push(`rejected: ${String(error)}`),
        );
        const queuedAtDispose = !reached.completed;
        await runtime.dispose();
        // The queue's worker marks the event after the fill; dispose joined it, so by now it has run.
        expect(queuedAtDispose, 'the fill was still queued when dispose was called').toBe(true);
        expect(reached.completed, 'the work queued before dispose had completed when dispose resolved').toBe(true);
        await waited;
        expect(settled).toEqual(['resolved']);
      });
    });

    it('disposes a queue twice without error; it waits for its work and refuses use afterwards', async () => {
      const { runtime, agent } = suite;
      const buffer = suite.allocate(smallBytes);
      const queue = agent.createQueue();
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: 0x11223344 });
      await queue.dispose();
      expectSameBytes(await agent.read(buffer.address, smallBytes), fillReference(smallBytes, 0x11223344), 'work of the disposed queue');
      await queue.dispose();
      await queue[Symbol.asyncDispose]();
      expectThrows(
        () => queue.enqueueCopy([{ source: buffer.address, destination: buffer.address + 8, bytes: 8 }]),
        DisposedError,
        'enqueueCopy on a disposed queue',
      );
      expectThrows(() => queue.recordEvent(), DisposedError, 'recordEvent on a disposed queue');
      await expectRejects(() => queue.synchronize(), DisposedError, 'synchronize on a disposed queue');
      await expectRejects(() => queue.hashPages([{ address: buffer.address, bytes: 64 }], 64), DisposedError, 'hashPages on a disposed queue');
      // The other queues of the agent are unaffected.
      const other = suite.createQueue();
      other.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: 0 });
      await other.synchronize();
    });

    it('refuses freeing an allocation twice, and using a freed one, with ArgumentError', async () => {
      const { agent } = suite;
      const allocation = agent.allocate(smallBytes);
      allocation.free();
      expect(allocation.freed).toBe(true);
      expectThrows(() => allocation.free(), ArgumentError, 'free of a freed device allocation');
      const queue = suite.createQueue();
      expectThrows(
        () => queue.enqueueKernel(suite.runtime.kernels.fill, { destination: allocation.address, bytes: 64, value: 0 }),
        ArgumentError,
        'a kernel on a freed allocation',
      );
      const host = suite.runtime.allocateHost(smallBytes, { pinned: true });
      host.free();
      expectThrows(() => host.free(), ArgumentError, 'free of a freed host buffer');
      expect(() => host.view()).toThrow();
    });
  });
}
