import { ArgumentError, DisposedError, KreplayError } from '@kreplay/native';
import { describe, expect, it, vi } from 'vitest';
import { FakeRuntime } from './fake-runtime.js';
import { createTracker } from './tracker.js';
import type { AllocationChange } from './allocation-change.js';

const messageForm = /^\[tracker\] \[[a-z-]+\] [^]+\. [^]+\.$/;

function setup(options?: Parameters<typeof createTracker>[1]) {
  const runtime = new FakeRuntime(2);
  const tracker = createTracker(runtime, options);
  return { runtime, tracker };
}

function expectArgumentError(run: () => unknown, argument?: string): ArgumentError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ArgumentError);
  expect(caught).toBeInstanceOf(KreplayError);
  const error = caught as ArgumentError;
  expect(error.message).toMatch(messageForm);
  if (argument !== undefined) expect(error.argument).toBe(argument);
  return error;
}

describe('inventory', () => {
  it('lists an agent’s device and stream-ordered allocations by address', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x3000, 0x100);
    runtime.allocate(0, 0x1000, 0x200, 'stream-ordered', 7);
    runtime.allocate(1, 0x9000, 0x10);
    const list = tracker.allocations(0);
    expect(list.map((allocation) => allocation.address)).toEqual([0x1000, 0x3000]);
    expect(list[0]).toMatchObject({ kind: 'stream-ordered', agentId: 0, queueId: 7, bytes: 0x200 });
    expect(list[1]).not.toHaveProperty('queueId');
    expect(tracker.allocations(1)).toHaveLength(1);
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(list[0])).toBe(true);
  });

  it('returns the same array until the agent’s allocations change', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    const first = tracker.allocations(0);
    runtime.allocate(1, 0x9000, 0x100);
    expect(tracker.allocations(0)).toBe(first);
    runtime.allocate(0, 0x2000, 0x100);
    expect(tracker.allocations(0)).not.toBe(first);
    expect(tracker.allocations(0)).toHaveLength(2);
  });

  it('keeps host buffers apart, with agentId null', () => {
    const { runtime, tracker } = setup();
    runtime.allocateHost(0x50000, 0x1000, true);
    runtime.allocateHost(0x40000, 0x1000, false);
    expect(tracker.hostAllocations().map((allocation) => [allocation.kind, allocation.agentId])).toEqual([
      ['host-pageable', null],
      ['host-pinned', null],
    ]);
    expect(tracker.allocations(0)).toEqual([]);
    expect(tracker.footprintBytes(0)).toBe(0);
  });

  it('gives unique, increasing ids that are never reused', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    const first = tracker.find(0x1000)!.id;
    runtime.free(0, 0x1000);
    runtime.allocate(0, 0x1000, 0x100);
    runtime.allocateHost(0x8000, 0x10);
    expect(tracker.find(0x1000)!.id).toBe(first + 1);
    expect(tracker.find(0x8000)!.id).toBe(first + 2);
  });

  it('removes freed allocations and counts frees of unknown addresses without throwing', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    runtime.allocateHost(0x8000, 0x100);
    expect(() => runtime.free(0, 0x5000)).not.toThrow();
    expect(() => runtime.free(0, 0x1010)).not.toThrow(); // interior, not a start
    expect(() => runtime.free(1, 0x1000)).not.toThrow(); // another agent's map
    expect(tracker.stats().unknownFrees).toBe(3);
    runtime.free(0, 0x1000);
    runtime.free(null, 0x8000);
    expect(tracker.allocations(0)).toEqual([]);
    expect(tracker.hostAllocations()).toEqual([]);
    expect(tracker.stats()).toMatchObject({ events: 7, unknownFrees: 3 });
  });

  it('drops allocations a new one overlaps (a missed free), announcing them as freed', () => {
    const { runtime, tracker } = setup();
    const changes: AllocationChange[] = [];
    tracker.onChange((change) => changes.push(change));
    runtime.allocate(0, 0x1000, 0x100);
    runtime.allocate(0, 0x1200, 0x100);
    runtime.allocate(0, 0x1400, 0x100);
    runtime.allocate(0, 0x1080, 0x300); // overlaps the first two
    expect(tracker.allocations(0).map((allocation) => allocation.address)).toEqual([0x1080, 0x1400]);
    expect(tracker.footprintBytes(0)).toBe(0x400);
    expect(tracker.stats().overlappedAllocations).toBe(2);
    expect(changes.slice(3).map((change) => [change.type, change.allocation.address])).toEqual([
      ['free', 0x1000],
      ['free', 0x1200],
      ['allocate', 0x1080],
    ]);
  });

  it('ignores host buffers when trackHostBuffers is false', () => {
    const { runtime, tracker } = setup({ trackHostBuffers: false });
    runtime.allocateHost(0x8000, 0x100);
    runtime.free(null, 0x8000);
    expect(tracker.hostAllocations()).toEqual([]);
    expect(tracker.find(0x8000)).toBeUndefined();
    expect(tracker.stats()).toMatchObject({ ignoredHostEvents: 2, unknownFrees: 0 });
  });

  it('counts malformed events and ignores them', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0);
    runtime.allocate(0, -16, 8);
    runtime.allocate(0, 1.5, 8);
    runtime.emit({ type: 'allocate', agentId: null, address: 0x1000, bytes: 8, kind: 'device' });
    runtime.emit({ type: 'bogus', agentId: 0, address: 0x1000, bytes: 8, kind: 'device' } as never);
    runtime.emit(null as never);
    expect(tracker.stats().malformedEvents).toBe(6);
    expect(tracker.allocations(0)).toEqual([]);
  });
});

describe('find', () => {
  it('finds any interior pointer on any agent or the host, the end excluded', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    runtime.allocate(1, 0x2000, 0x100);
    runtime.allocateHost(0x3000, 0x100);
    expect(tracker.find(0x1000)?.address).toBe(0x1000);
    expect(tracker.find(0x10ff)?.address).toBe(0x1000);
    expect(tracker.find(0x1100)).toBeUndefined();
    expect(tracker.find(0xfff)).toBeUndefined();
    expect(tracker.find(0x2080)?.agentId).toBe(1);
    expect(tracker.find(0x3000)?.kind).toBe('host-pinned');
    expect(tracker.find(0)).toBeUndefined();
  });

  it('rejects an address that is not a non-negative integer', () => {
    const { tracker } = setup();
    expectArgumentError(() => tracker.find(1.5), 'address');
    expectArgumentError(() => tracker.find(-1), 'address');
    expectArgumentError(() => tracker.find('4096' as never), 'address');
  });
});

describe('agents', () => {
  it('knows the runtime’s agents before they allocate, and agents named by events', () => {
    const { runtime, tracker } = setup();
    expect(tracker.allocations(1)).toEqual([]);
    expect(tracker.footprintBytes(1)).toBe(0);
    runtime.allocate(5, 0x1000, 0x10);
    expect(tracker.allocations(5)).toHaveLength(1);
  });

  it('rejects an unknown agent or a malformed id', () => {
    const { tracker } = setup();
    const error = expectArgumentError(() => tracker.allocations(9), 'agentId');
    expect(error.message).toContain('(0, 1)');
    expectArgumentError(() => tracker.footprintBytes(-1), 'agentId');
    expectArgumentError(() => tracker.highWaterBytes(0.5), 'agentId');
    expectArgumentError(() => tracker.resolveArguments(3, { name: 'k', parameters: [], deterministic: true }, {}), 'agentId');
  });

  it('works with a runtime that lists no agents', () => {
    const tracker = createTracker({ onMemoryEvent: () => () => {} });
    expect(expectArgumentError(() => tracker.allocations(0)).message).toContain('No agent is known yet');
  });
});

describe('tags', () => {
  it('tags and untags through any interior pointer, seen live through a read-only view', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    const allocation = tracker.find(0x1000)!;
    tracker.tag(0x1080, 'read-only');
    tracker.tag(0x1000, 'read-only');
    expect([...allocation.tags]).toEqual(['read-only']);
    expect(allocation.tags.has('read-only')).toBe(true);
    expect(allocation.tags.size).toBe(1);
    expect('add' in allocation.tags).toBe(false);
    tracker.untag(0x10ff, 'read-only');
    tracker.untag(0x10ff, 'excluded');
    expect(allocation.tags.size).toBe(0);
  });

  it('rejects untracked addresses and unknown tags', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    expect(expectArgumentError(() => tracker.tag(0x2000, 'excluded'), 'address').message).toContain('0x2000');
    expectArgumentError(() => tracker.untag(0x2000, 'excluded'), 'address');
    expectArgumentError(() => tracker.tag(0x1000, 'readonly' as never), 'tag');
    expectArgumentError(() => tracker.tag(Number.NaN, 'excluded'), 'address');
  });

  it('does not carry tags over to memory allocated again at the same address', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 0x100);
    tracker.tag(0x1000, 'excluded');
    runtime.free(0, 0x1000);
    runtime.allocate(0, 0x1000, 0x100);
    expect(tracker.find(0x1000)!.tags.size).toBe(0);
    expect(tracker.footprintBytes(0)).toBe(0x100);
  });
});

describe('footprint', () => {
  it('sums live device and stream-ordered bytes minus excluded, and keeps the high-water', () => {
    const { runtime, tracker } = setup();
    runtime.allocate(0, 0x1000, 100);
    runtime.allocate(0, 0x2000, 50, 'stream-ordered', 1);
    runtime.allocate(1, 0x9000, 7);
    runtime.allocateHost(0x8000, 1000);
    expect(tracker.footprintBytes(0)).toBe(150);
    expect(tracker.footprintBytes(1)).toBe(7);
    tracker.tag(0x1000, 'excluded');
    expect(tracker.footprintBytes(0)).toBe(50);
    runtime.free(0, 0x1000); // excluded: nothing more to subtract
    expect(tracker.footprintBytes(0)).toBe(50);
    runtime.free(0, 0x2000, 'stream-ordered');
    expect(tracker.footprintBytes(0)).toBe(0);
    expect(tracker.highWaterBytes(0)).toBe(150);
    runtime.allocate(0, 0x1000, 200);
    tracker.tag(0x1000, 'excluded');
    tracker.untag(0x1000, 'excluded');
    expect(tracker.highWaterBytes(0)).toBe(200);
  });
});

describe('onChange', () => {
  it('reports allocates and frees after the inventory reflects them, until unsubscribed', () => {
    const { runtime, tracker } = setup();
    const seen: string[] = [];
    const unsubscribe = tracker.onChange((change) => {
      seen.push(`${change.type} ${change.allocation.address} ${tracker.find(0x1000) === undefined ? 'gone' : 'here'}`);
    });
    runtime.allocate(0, 0x1000, 0x10);
    runtime.free(0, 0x1000);
    unsubscribe();
    unsubscribe();
    runtime.allocate(0, 0x1000, 0x10);
    expect(seen).toEqual([`allocate ${0x1000} here`, `free ${0x1000} gone`]);
  });

  it('isolates a throwing listener: the others run, the error goes to onListenerError', () => {
    const onListenerError = vi.fn();
    const { runtime, tracker } = setup({ onListenerError });
    const boom = new Error('boom');
    const after = vi.fn();
    tracker.onChange(() => {
      throw boom;
    });
    tracker.onChange(after);
    expect(() => runtime.allocate(0, 0x1000, 0x10)).not.toThrow();
    expect(after).toHaveBeenCalledTimes(1);
    expect(onListenerError).toHaveBeenCalledWith(boom, expect.objectContaining({ type: 'allocate' }));
    expect(tracker.stats().listenerErrors).toBe(1);
    expect(tracker.allocations(0)).toHaveLength(1);
  });

  it('rethrows a listener’s error asynchronously by default', () => {
    const { runtime, tracker } = setup();
    const scheduled: (() => void)[] = [];
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => scheduled.push(task));
    try {
      tracker.onChange(() => {
        throw new Error('late');
      });
      expect(() => runtime.allocate(0, 0x1000, 0x10)).not.toThrow();
    } finally {
      spy.mockRestore();
    }
    expect(scheduled).toHaveLength(1);
    expect(() => scheduled[0]!()).toThrow('late');
  });

  it('rejects a listener that is not a function', () => {
    const { tracker } = setup();
    expectArgumentError(() => tracker.onChange(42 as never), 'listener');
  });
});

describe('dispose', () => {
  it('stops listening, drops listeners, is idempotent, and refuses later calls', () => {
    const { runtime, tracker } = setup();
    const listener = vi.fn();
    tracker.onChange(listener);
    expect(runtime.listenerCount).toBe(1);
    tracker[Symbol.dispose]();
    tracker.dispose();
    expect(runtime.listenerCount).toBe(0);
    runtime.allocate(0, 0x1000, 0x10);
    expect(listener).not.toHaveBeenCalled();
    for (const call of [
      () => tracker.allocations(0),
      () => tracker.hostAllocations(),
      () => tracker.find(0),
      () => tracker.tag(0, 'excluded'),
      () => tracker.stats(),
      () => tracker.onChange(() => {}),
    ]) {
      expect(call).toThrow(DisposedError);
    }
    expect(() => tracker.find(0)).toThrow(messageForm);
  });
});

describe('createTracker', () => {
  it('validates the runtime and the options', () => {
    expectArgumentError(() => createTracker({} as never), 'runtime');
    expectArgumentError(() => createTracker(null as never), 'runtime');
    const runtime = new FakeRuntime();
    expectArgumentError(() => createTracker(runtime, { trackHostBufers: true } as never), 'trackHostBufers');
    expectArgumentError(() => createTracker(runtime, { trackHostBuffers: 'yes' } as never), 'trackHostBuffers');
    expectArgumentError(() => createTracker(runtime, { onListenerError: 1 } as never), 'onListenerError');
    expectArgumentError(() => createTracker(runtime, 5 as never), 'options');
    expect(runtime.listenerCount).toBe(0);
  });
});
