import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { createTracker } from '@kreplay/tracker';
import { createStaging } from './staging/create-staging.js';
import { dirtyPagesStrategy } from './dirty-pages-strategy.js';
import { fullStrategy } from './full-strategy.js';
import { writeSetStrategy } from './write-set-strategy.js';
import { replayByHand, allocateWorkload } from './test/replay-by-hand.js';
import { openStrategyFixture, randomBytes } from './test/strategy-fixture.js';

// These declarations are also the type-level test: `tsc --build` (pnpm typecheck) compiles them only
// while staging, leases, strategies, trackers, allocations, queues and runtimes are disposable.
describe('disposal with using', () => {
  it('gives staging, strategies, leases, allocations, the tracker, queues and the runtime back at the end of a block', async () => {
    let freeInside = 0;
    let freeBefore = 0;
    let freeAfter = 0;
    {
      await using runtime = await openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 64 * 2 ** 20 } });
      using tracker = createTracker(runtime);
      const agent = runtime.agents[0]!;
      freeBefore = agent.memoryInfo().freeBytes;
      {
        using staging = createStaging(runtime, tracker);
        using buffer = agent.allocate(256 * 1024);
        using readback = runtime.allocateHost(4096, { pinned: true });
        await using queue = agent.createQueue();
        {
          const leased = staging.lease(agent, 128 * 1024, 'device');
          if (leased.kind !== 'leased') throw new Error(leased.reason);
          using lease = leased.lease;
          expect(staging.usage().leasedBytes).toBe(128 * 1024);
          expect(lease.bytes).toBe(128 * 1024);
        }
        expect(staging.usage()).toMatchObject({ leasedBytes: 0, pooledBytes: 128 * 1024 });
        queue.enqueueCopy([{ source: buffer.address, destination: readback.address, bytes: 4096 }]);
        await queue.synchronize();
        freeInside = agent.memoryInfo().freeBytes;
      }
      await agent.synchronize();
      freeAfter = agent.memoryInfo().freeBytes;
      expect(tracker.hostAllocations()).toHaveLength(0);
    }
    expect(freeInside).toBeLessThan(freeBefore);
    expect(freeAfter).toBe(freeBefore);
  });

  it('gives a dirty-pages mirror back when the strategy goes out of scope', async () => {
    const fixture = await openStrategyFixture();
    try {
      const workload = await allocateWorkload(fixture, 1, randomBytes);
      {
        using dirty = dirtyPagesStrategy({ tier: 'device' });
        using full = fullStrategy();
        using writeSet = writeSetStrategy();
        for (const strategy of [dirty, full, writeSet]) await replayByHand(fixture, strategy, workload, 2, 1);
        expect(fixture.staging.usage().leasedBytes).toBeGreaterThan(0); // the mirror
      }
      expect(fixture.staging.usage().leasedBytes).toBe(0);
    } finally {
      await fixture.dispose();
    }
  });
});
