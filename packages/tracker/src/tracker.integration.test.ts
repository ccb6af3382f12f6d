import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openRuntime, type Runtime } from '@kreplay/native';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracker, type Tracker } from './tracker.js';

// The tracker on a real runtime of the host driver (no GPU needed); skipped until the addon is built.
const addonPath = fileURLToPath(new URL('../../native/build/Release/kreplay.node', import.meta.url));

describe.skipIf(!existsSync(addonPath))('tracker on a host runtime', () => {
  let runtime: Runtime;
  let tracker: Tracker;

  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 64 * 2 ** 20, threads: 2 } });
    tracker = createTracker(runtime);
  });

  afterAll(async () => {
    tracker?.dispose();
    await runtime?.dispose();
  });

  it('tracks device allocations and frees, with footprint and high-water', () => {
    const [agent, other] = runtime.agents;
    const before = tracker.footprintBytes(agent!.id);
    const first = agent!.allocate(4096);
    const second = agent!.allocate(10_000);
    const elsewhere = other!.allocate(512);
    expect(tracker.find(first.address + 100)).toMatchObject({ address: first.address, bytes: 4096, kind: 'device', agentId: agent!.id });
    expect(tracker.find(elsewhere.address)?.agentId).toBe(other!.id);
    expect(tracker.allocations(agent!.id).map((allocation) => allocation.address)).toEqual(
      expect.arrayContaining([first.address, second.address]),
    );
    expect(tracker.footprintBytes(agent!.id)).toBe(before + 14_096);
    first.free();
    second.free();
    elsewhere.free();
    expect(tracker.find(first.address)).toBeUndefined();
    expect(tracker.footprintBytes(agent!.id)).toBe(before);
    expect(tracker.highWaterBytes(agent!.id)).toBeGreaterThanOrEqual(before + 14_096);
    expect(tracker.stats().unknownFrees).toBe(0);
  });

  it('tracks stream-ordered memory from enqueueAllocate to enqueueFree, with its queue', async () => {
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    try {
      const before = tracker.footprintBytes(agent.id);
      const ordered = queue.enqueueAllocate(8192);
      expect(tracker.find(ordered.address + 8191)).toMatchObject({ kind: 'stream-ordered', queueId: queue.id, bytes: 8192 });
      expect(tracker.footprintBytes(agent.id)).toBe(before + 8192);
      queue.enqueueFree(ordered);
      expect(tracker.find(ordered.address)).toBeUndefined();
      await queue.synchronize();
      expect(tracker.footprintBytes(agent.id)).toBe(before);
    } finally {
      await queue.dispose();
    }
  });

  it('tracks pinned and pageable host buffers apart from every agent', () => {
    const pinned = runtime.allocateHost(3000, { pinned: true });
    const pageable = runtime.allocateHost(5000, { pinned: false });
    expect(tracker.find(pinned.address + 2999)).toMatchObject({ kind: 'host-pinned', agentId: null });
    expect(tracker.hostAllocations().map((allocation) => allocation.kind)).toEqual(
      expect.arrayContaining(['host-pinned', 'host-pageable']),
    );
    expect(tracker.footprintBytes(0) + tracker.footprintBytes(1)).toBe(0);
    pinned.free();
    pageable.free();
    expect(tracker.find(pinned.address)).toBeUndefined();
    expect(tracker.find(pageable.address)).toBeUndefined();
  });

  it('resolves the arguments of the built-in triad and scatterWrite kernels', async () => {
    const agent = runtime.agents[0]!;
    const count = 1024;
    const a = agent.allocate(count * 4);
    const b = agent.allocate(count * 4);
    const c = runtime.allocateHost(count * 4 * 2, { pinned: true });
    const buffer = agent.allocate(64 * 1024);
    const queue = agent.createQueue();
    try {
      tracker.tag(b.address, 'read-only');
      const triad = tracker.resolveArguments(agent.id, runtime.kernels.triad, {
        a: a.address,
        b: b.address,
        c: c.address,
        scalar: 2,
        count,
      });
      expect(triad.bounded).toBe(true);
      expect(triad.unresolved).toEqual([]);
      expect(triad.reasons).toEqual([]);
      const byAddress = new Map(triad.reached.map((reached) => [reached.allocation.address, reached]));
      expect(byAddress.get(a.address)).toMatchObject({ access: 'write', parameters: ['a'], range: { address: a.address, bytes: count * 4 } });
      expect(byAddress.get(b.address)).toMatchObject({ access: 'read', parameters: ['b'] });
      expect(byAddress.get(c.address)).toMatchObject({ access: 'read', range: { address: c.address, bytes: count * 4 } });
      expect(byAddress.get(c.address)?.allocation.kind).toBe('host-pinned');
      queue.enqueueKernel(runtime.kernels.triad, { a: a.address, b: b.address, c: c.address, scalar: 2, count });

      const scatter = tracker.resolveArguments(agent.id, runtime.kernels.scatterWrite, {
        buffer: buffer.address,
        bytes: 32 * 1024,
        pageBytes: 4096,
        fraction: 0.5,
        seed: 7n,
        source: b.address,
        sourceBytes: 256,
      });
      expect(scatter.bounded).toBe(true);
      expect(scatter.unresolved).toEqual([]);
      const reached = new Map(scatter.reached.map((entry) => [entry.allocation.address, entry]));
      expect(reached.get(buffer.address)).toMatchObject({ access: 'readwrite', parameters: ['buffer'], range: { address: buffer.address, bytes: 32 * 1024 } });
      expect(reached.get(b.address)).toMatchObject({ access: 'read', parameters: ['source'], range: { address: b.address, bytes: 256 } });

      // Writing a read-only allocation is reported, not refused.
      const intoReadOnly = tracker.resolveArguments(agent.id, runtime.kernels.triad, { a: b.address, b: a.address, c: c.address, scalar: 1, count });
      expect(intoReadOnly.reasons.join('\n')).toMatch(/may write allocation .* tagged read-only/);

      // A pointer the tracker does not know is unresolved.
      const stray = tracker.resolveArguments(agent.id, runtime.kernels.triad, { a: a.address, b: b.address, c: 8, scalar: 1, count });
      expect(stray.unresolved).toEqual([{ parameter: 'c', address: 8 }]);
      await queue.synchronize();
    } finally {
      await queue.dispose();
      for (const allocation of [a, b, c, buffer]) allocation.free();
    }
  });
});
