import { describe, expect, it } from 'vitest';
import type { MemoryEvent } from '../index.js';
import { expectSameBytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** Allocation and free events of every kind of memory: fields, order, listeners. */
export function describeMemoryEvents(options: ResolvedDriverTestOptions): void {
  describe('memory events', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes } = options.sizes;

    /** Subscribes for the duration of `action` and returns what was seen. */
    async function recordEvents(action: () => unknown): Promise<MemoryEvent[]> {
      const events: MemoryEvent[] = [];
      const unsubscribe = suite.runtime.onMemoryEvent((event) => events.push(event));
      try {
        await action();
      } finally {
        unsubscribe();
      }
      return events;
    }

    it('reports a device allocate and free synchronously, with agent, address, bytes and kind', () => {
      const { agent, runtime } = suite;
      const events: MemoryEvent[] = [];
      const unsubscribe = runtime.onMemoryEvent((event) => events.push(event));
      const allocation = agent.allocate(smallBytes + 3);
      expect(events).toHaveLength(1);
      allocation.free();
      expect(events).toHaveLength(2);
      unsubscribe();
      expect(events[0]).toMatchObject({ type: 'allocate', agentId: agent.id, address: allocation.address, bytes: smallBytes + 3, kind: 'device' });
      expect(events[1]).toMatchObject({ type: 'free', agentId: agent.id, address: allocation.address, bytes: smallBytes + 3, kind: 'device' });
      expect(events[0]!.queueId).toBeUndefined();
      expect(events[1]!.queueId).toBeUndefined();
    });

    it('reports pinned and pageable host buffers with agentId null', async () => {
      const events = await recordEvents(() => {
        const pinned = suite.runtime.allocateHost(smallBytes, { pinned: true });
        const pageable = suite.runtime.allocateHost(smallBytes + 1, { pinned: false });
        expect(pinned.kind).toBe('host-pinned');
        expect(pageable.kind).toBe('host-pageable');
        expect(pinned.agentId).toBeNull();
        expect(pinned.view().byteLength).toBe(smallBytes);
        expect(pageable.view().byteLength).toBe(smallBytes + 1);
        pageable.free();
        pinned.free();
        expect(pinned.freed && pageable.freed).toBe(true);
        return [pinned, pageable];
      });
      expect(events.map((event) => `${event.type}:${event.kind}:${event.bytes}`)).toEqual([
        `allocate:host-pinned:${smallBytes}`,
        `allocate:host-pageable:${smallBytes + 1}`,
        `free:host-pageable:${smallBytes + 1}`,
        `free:host-pinned:${smallBytes}`,
      ]);
      for (const event of events) {
        expect(event.agentId).toBeNull();
        expect(event.queueId).toBeUndefined();
      }
      expect(events[0]!.address).toBe(events[3]!.address);
      expect(events[1]!.address).toBe(events[2]!.address);
    });

    it('keeps program order across kinds and allocations', async () => {
      const events = await recordEvents(() => {
        const first = suite.agent.allocate(100);
        const host = suite.runtime.allocateHost(200, { pinned: true });
        const second = suite.agent.allocate(300);
        first.free();
        const third = suite.agent.allocate(400);
        host.free();
        second.free();
        third.free();
      });
      expect(events.map((event) => `${event.type}:${event.bytes}`)).toEqual([
        'allocate:100',
        'allocate:200',
        'allocate:300',
        'free:100',
        'allocate:400',
        'free:200',
        'free:300',
        'free:400',
      ]);
    });

    it('delivers to every listener and stops after unsubscribe', () => {
      const { runtime, agent } = suite;
      const first: MemoryEvent[] = [];
      const second: MemoryEvent[] = [];
      const stopFirst = runtime.onMemoryEvent((event) => first.push(event));
      const stopSecond = runtime.onMemoryEvent((event) => second.push(event));
      agent.allocate(64).free();
      stopFirst();
      agent.allocate(64).free();
      stopSecond();
      agent.allocate(64).free();
      expect(first).toHaveLength(2);
      expect(second).toHaveLength(4);
    });

    it.skipIf(!options.capabilities.streamOrderedMemory)(
      'reports stream-ordered allocate and free with their queueId, and the memory is usable by later work',
      async () => {
        const { agent } = suite;
        const queue = suite.createQueue();
        const data = randomBytes(smallBytes, 11);
        const source = await suite.allocateWith(data);
        const result = suite.allocate(smallBytes);
        const events = await recordEvents(async () => {
          const ordered = queue.enqueueAllocate(smallBytes);
          expect(ordered.kind).toBe('stream-ordered');
          expect(ordered.agentId).toBe(agent.id);
          expect(ordered.bytes).toBe(smallBytes);
          expect(agent.findAllocation(ordered.address + 1)).toBe(ordered);
          queue.enqueueCopy([{ source: source.address, destination: ordered.address, bytes: smallBytes }]);
          queue.enqueueCopy([{ source: ordered.address, destination: result.address, bytes: smallBytes }]);
          queue.enqueueFree(ordered);
          await queue.synchronize();
          expect(ordered.freed).toBe(true);
          expect(agent.findAllocation(ordered.address)).toBeUndefined();
        });
        expect(events).toHaveLength(2);
        expect(events[0]).toMatchObject({ type: 'allocate', kind: 'stream-ordered', agentId: agent.id, bytes: smallBytes, queueId: queue.id });
        expect(events[1]).toMatchObject({ type: 'free', kind: 'stream-ordered', agentId: agent.id, bytes: smallBytes, queueId: queue.id });
        expect(events[1]!.address).toBe(events[0]!.address);
        expectSameBytes(await agent.read(result.address, smallBytes), data, 'copied through stream-ordered memory');
      },
    );

    it.skipIf(!options.capabilities.streamOrderedMemory)('emits the stream-ordered events at the enqueue calls, in program order', () => {
      const queue = suite.createQueue();
      const events: MemoryEvent[] = [];
      const unsubscribe = suite.runtime.onMemoryEvent((event) => events.push(event));
      const first = queue.enqueueAllocate(128);
      expect(events).toHaveLength(1);
      const device = suite.agent.allocate(256);
      const second = queue.enqueueAllocate(512);
      queue.enqueueFree(first);
      device.free();
      queue.enqueueFree(second);
      unsubscribe();
      expect(events.map((event) => `${event.type}:${event.kind}:${event.bytes}`)).toEqual([
        'allocate:stream-ordered:128',
        'allocate:device:256',
        'allocate:stream-ordered:512',
        'free:stream-ordered:128',
        'free:device:256',
        'free:stream-ordered:512',
      ]);
    });
  });
}
