import { describe, expect, it, vi } from 'vitest';
import { fixedPasses } from './fixed-passes.js';
import { claimsConflict, RangeLock } from './range-lock.js';
import { fakeRequest, fakeSetup } from './test-support/fake-setup.js';
import { testStrategy } from './test-support/test-strategy.js';

const range = (address: number, bytes: number) => [{ address, bytes }];

describe('range lock', () => {
  it('lets windows of other queues conflict only where one writes what the other captures', () => {
    const replaying = { queueId: 1, writes: range(0, 100), captures: range(0, 100) };
    expect(claimsConflict(replaying, { queueId: 2, writes: range(50, 10), captures: [] })).toBe(true);
    expect(claimsConflict(replaying, { queueId: 2, writes: range(100, 10), captures: [] })).toBe(false);
    expect(claimsConflict(replaying, { queueId: 2, writes: [], captures: range(0, 10) })).toBe(true);
    expect(claimsConflict(replaying, { queueId: 1, writes: range(0, 10), captures: range(0, 10) })).toBe(false);
    expect(claimsConflict(replaying, { queueId: 3, writes: 'everything', captures: [] })).toBe(true);
    expect(claimsConflict({ queueId: 4, writes: 'everything', captures: [] }, { queueId: 5, writes: range(0, 1), captures: [] })).toBe(false);
  });

  it('holds a conflicting claim until the holder releases it', async () => {
    const lock = new RangeLock();
    const first = await lock.acquire({ queueId: 1, writes: range(0, 10), captures: range(0, 10) });
    let acquired = false;
    const second = lock.acquire({ queueId: 2, writes: range(5, 1), captures: [] }).then((held) => {
      acquired = true;
      return held;
    });
    const unrelated = await lock.acquire({ queueId: 3, writes: range(20, 1), captures: range(20, 1) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(acquired).toBe(false);
    first.release();
    first.release();
    const held = await second;
    expect(held.waitedMs).toBeGreaterThan(0);
    held.release();
    unrelated.release();
    expect(lock.size).toBe(0);
  });

  it('holds a free claim at once, and refuses to wait without a promise', () => {
    const lock = new RangeLock();
    const first = lock.tryAcquire({ queueId: 1, writes: range(0, 10), captures: range(0, 10) });
    expect(first?.waitedMs).toBe(0);
    expect(lock.tryAcquire({ queueId: 2, writes: range(5, 1), captures: [] })).toBeUndefined();
    const unrelated = lock.tryAcquire({ queueId: 3, writes: range(20, 1), captures: range(20, 1) });
    expect(lock.size).toBe(2);
    first!.release();
    expect(lock.tryAcquire({ queueId: 2, writes: range(5, 1), captures: [] })).toBeDefined();
    unrelated!.release();
  });
});

describe('windows on several queues (fake runtime)', () => {
  it('runs a disjoint window on another queue alongside, and holds an overlapping writer back', async () => {
    // Fake timers make the delayed kernel a gate: it cannot finish until the test advances the
    // clock past its delay, whatever the machine's load, so the order below is the lock's doing.
    vi.useFakeTimers();
    try {
      const setup = fakeSetup();
      const engine = setup.engine({ strategy: testStrategy(), passes: fixedPasses(2) });
      const shared = setup.buffer(1000, 0);
      const other = setup.buffer(1000, 0);
      const operations: string[] = [];
      /** A queue whose operations are also logged, in the order they ran across queues. */
      const loggedQueue = (name: string) => {
        const queue = setup.queue();
        const push = queue.log.push.bind(queue.log);
        queue.log.push = (...labels: string[]) => {
          operations.push(...labels.map((label) => `${name}: ${label}`));
          return push(...labels);
        };
        return queue;
      };
      const finished: string[] = [];
      const settle = <T>(name: string, promise: Promise<T>) => promise.then((result) => (finished.push(name), result));
      setup.runtime.injectFault({ operation: 'kernel', count: 1, delayMilliseconds: 60 });
      const slow = settle('slow', engine.dispatch(fakeRequest(loggedQueue('slow'), 'increment', { buffer: shared.address, bytes: 1000 })));
      const disjoint = settle('disjoint', engine.dispatch(fakeRequest(loggedQueue('disjoint'), 'increment', { buffer: other.address, bytes: 1000 })));
      const overlapping = settle('overlapping', engine.dispatch(fakeRequest(loggedQueue('overlapping'), 'fill', { destination: shared.address, bytes: 1000, value: 9 })));
      // Everything but the delayed kernel is due at once: the disjoint window runs to its end
      // while the slow one is held, and the overlapping writer has not run anything yet.
      await vi.advanceTimersByTimeAsync(30);
      expect(finished).toEqual(['disjoint']);
      expect(operations.filter((operation) => operation.startsWith('slow'))).toEqual(['slow: copy']);
      expect(operations.some((operation) => operation.startsWith('overlapping'))).toBe(false);
      expect(shared.data[0]).toBe(0);
      await vi.runAllTimersAsync();
      const results = await Promise.all([slow, disjoint, overlapping]);
      expect(finished).toEqual(['disjoint', 'slow', 'overlapping']);
      expect(results.map((result) => result.replayed)).toEqual([true, true, true]);
      // The overlapping writer's first operation ran only after the slow window's last one.
      const lastOfSlow = Math.max(...operations.flatMap((operation, index) => (operation.startsWith('slow') ? [index] : [])));
      const firstOfOverlapping = operations.findIndex((operation) => operation.startsWith('overlapping'));
      expect(lastOfSlow).toBeLessThan(firstOfOverlapping);
      expect(shared.data[0]).toBe(9);
      expect(other.data[0]).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with verification on, holds back writers of any memory it hashes', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ strategy: testStrategy(), passes: fixedPasses(2), verify: 'restore' });
    const shared = setup.buffer(1000, 0);
    const other = setup.buffer(1000, 0);
    const finished: string[] = [];
    setup.runtime.injectFault({ operation: 'kernel', count: 1, delayMilliseconds: 40 });
    const slow = engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: shared.address, bytes: 1000 })).then((result) => {
      finished.push('slow');
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const disjoint = engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: other.address, bytes: 1000 })).then((result) => {
      finished.push('disjoint');
      return result;
    });
    const results = await Promise.all([slow, disjoint]);
    expect(finished).toEqual(['slow', 'disjoint']);
    expect(results.map((result) => result.verified)).toEqual([true, true]);
  });
});
