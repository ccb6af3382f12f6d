import { describe, expect, it } from 'vitest';
import { dirtyPagesStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { allocateWith, openHostSetup, randomFloatBytes } from './test-support/host-setup.js';

const roomBytes = 512 * 1024;

describe('the dirty-pages restore cache under faults (host driver)', () => {
  // Per window over a mirror split across tiers: the restore before pass 2 is conditional copies
  // #0 (device part) and #1 (host part), then the gather into the cache #2; each later restore is
  // #3 (device part) and #4 (host part, from the cache), and so on. A fault in any of them is
  // retried, and every pass must still start from the same memory.
  const cases = [...[0, 1, 2].map((after) => ({ passes: 2, after })), ...[0, 1, 2, 3, 4, 5, 6].map((after) => ({ passes: 4, after }))];
  for (const { passes, after } of cases) {
    it(`${passes} passes, fails conditional copy #${after} once: the restore is retried, every pass verifies, and memory ends as plain runs leave it, after the next dispatch too`, async () => {
      const setup = await openHostSetup();
      try {
        const initial = randomFloatBytes((3 * roomBytes) / 4, 7);
        const replayed = await allocateWith(setup.agent, initial);
        const plain = await allocateWith(setup.agent, initial);
        setup.tracker.tag(plain.address, 'excluded');
        const staging = setup.createStaging();
        const ballast = setup.agent.allocate(staging.deviceRoomBytes!(setup.agent) - roomBytes);
        setup.tracker.tag(ballast.address, 'excluded');
        using strategy = dirtyPagesStrategy({ tier: 'auto', pageBytes: 4096 });
        await using engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy, passes: fixedPasses(passes), verify: 'full' });
        const queue = setup.agent.createQueue();
        try {
          const { scatterWrite } = setup.runtime.kernels;
          const args = (buffer: number, seed = 11) => ({ buffer, bytes: 3 * roomBytes, pageBytes: 4096, fraction: 0.05, seed, source: buffer, sourceBytes: 0 });
          setup.runtime.injectFault({ operation: 'conditional-copy', after, count: 1 });
          const result = await engine.dispatch({ queue, kernel: scatterWrite, args: args(replayed.address) });
          setup.runtime.clearFaults();
          expect(result.failure).toBeUndefined();
          expect(result.replayed).toBe(true);
          expect(result.verified).toBe(true);
          expect(result.notes.join(' ')).toMatch(/failed .*retried/);
          expect(result.bytes.staging['host-pinned']).toBeGreaterThan(0);
          // The next dispatch starts from what this one left, whatever it learned.
          const next = await engine.dispatch({ queue, kernel: scatterWrite, args: args(replayed.address, 12) });
          expect(next.failure).toBeUndefined();
          expect(next.verified).toBe(true);
          queue.enqueueKernel(scatterWrite, args(plain.address));
          queue.enqueueKernel(scatterWrite, args(plain.address, 12));
          await queue.synchronize();
          expectSameBytes(await setup.agent.read(replayed.address, replayed.bytes), await setup.agent.read(plain.address, plain.bytes), 'memory after the dispatch');
        } finally {
          await queue.dispose();
        }
      } finally {
        await setup.dispose();
      }
    });
  }
});
