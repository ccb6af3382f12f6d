import { describe, expect, it } from 'vitest';
import { ArgumentError } from '../index.js';
import { expectThrows } from './expect-errors.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { useSuiteRuntime } from './suite-runtime.js';

const delayMilliseconds = 120;

/** Timing events: completion, elapsed time, and what elapsed time refuses. */
export function describeEventsAndTiming(options: ResolvedDriverTestOptions): void {
  describe('events and timing', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes } = options.sizes;
    const { faultInjection, multipleAgents } = options.capabilities;

    it('completes events in queue order and measures non-negative, monotone elapsed times', async () => {
      const { runtime } = suite;
      const buffer = suite.allocate(smallBytes);
      const queue = suite.createQueue();
      const events = [queue.recordEvent()];
      for (let step = 0; step < 3; step += 1) {
        queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: step });
        events.push(queue.recordEvent());
      }
      await events[events.length - 1]!.synchronize();
      expect(events.map((event) => event.completed)).toEqual([true, true, true, true]);
      const [first] = events;
      const sinceFirst = events.map((event) => event.elapsedMillisecondsSince(first!));
      expect(sinceFirst[0]).toBe(0);
      for (let index = 1; index < sinceFirst.length; index += 1) {
        expect(Number.isFinite(sinceFirst[index])).toBe(true);
        expect(sinceFirst[index]!).toBeGreaterThanOrEqual(sinceFirst[index - 1]!);
        expect(events[index]!.elapsedMillisecondsSince(events[index - 1]!)).toBeGreaterThanOrEqual(0);
      }
      await queue.synchronize();
    });

    it('completes an event recorded on an idle queue', async () => {
      const queue = suite.createQueue();
      const event = queue.recordEvent();
      await event.synchronize();
      expect(event.completed).toBe(true);
    });

    it.skipIf(!faultInjection)('shows a delayed operation in the elapsed time, and refuses elapsed time of a pending event', async () => {
      const { runtime, agent } = suite;
      const buffer = suite.allocate(smallBytes);
      const queue = suite.createQueue();
      runtime.injectFault({ operation: 'kernel', count: 1, agentId: agent.id, delayMilliseconds });
      const before = queue.recordEvent();
      queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes: smallBytes, value: 1 });
      const after = queue.recordEvent();
      expect(after.completed).toBe(false);
      expectThrows(() => after.elapsedMillisecondsSince(before), ArgumentError, 'elapsed time of a pending event');
      await after.synchronize();
      expect(after.completed).toBe(true);
      expect(after.elapsedMillisecondsSince(before)).toBeGreaterThanOrEqual(delayMilliseconds * 0.9);
      await queue.synchronize();
    });

    it.skipIf(!multipleAgents)('refuses elapsed time between events of different agents', async () => {
      const [first, second] = suite.runtime.agents;
      expect(second, 'multipleAgents needs at least two agents').toBeDefined();
      const one = suite.createQueue(first).recordEvent();
      const other = suite.createQueue(second).recordEvent();
      await Promise.all([one.synchronize(), other.synchronize()]);
      expectThrows(() => other.elapsedMillisecondsSince(one), ArgumentError, 'elapsed time across agents');
    });
  });
}
