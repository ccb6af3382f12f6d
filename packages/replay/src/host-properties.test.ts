import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy, type StagingTierChoice } from '@kreplay/snapshot';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { allocateWith, randomFloatBytes, readAll, useHostSetup } from './test-support/host-setup.js';
import { launchOf, layoutArbitrary, scenarioArbitrary } from './test-support/kernel-scenarios.js';

const setup = useHostSetup();

const strategies = { full: fullStrategy, 'write-set': writeSetStrategy, 'dirty-pages': dirtyPagesStrategy } as const;
const tiers: StagingTierChoice[] = ['device', 'host-pinned', 'host-pageable', 'auto'];

const caseArbitrary = layoutArbitrary.chain((sizes) =>
  fc.record({
    sizes: fc.constant(sizes),
    scenario: scenarioArbitrary(sizes),
    passes: fc.integer({ min: 1, max: 5 }),
    strategy: fc.constantFrom(...(Object.keys(strategies) as (keyof typeof strategies)[])),
    tier: fc.constantFrom(...tiers),
    seed: fc.nat(),
  }),
);

describe('replay properties (host driver)', () => {
  it('every strategy and tier: each pass starts from identical memory, and memory ends bit-identical to one run', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ sizes, scenario, passes, strategy: name, tier, seed }) => {
        const strategy = strategies[name]({ tier });
        const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(passes), verify: 'full' });
        const data = sizes.map((bytes, index) => randomFloatBytes(bytes / 4, seed + index));
        const replayed = await Promise.all(data.map((bytes) => allocateWith(setup.agent, bytes)));
        const once = await Promise.all(data.map((bytes) => allocateWith(setup.agent, bytes)));
        const queue = setup.agent.createQueue();
        try {
          const launch = launchOf(setup.runtime, scenario, replayed);
          const result = await engine.dispatch({ queue, ...launch });
          const direct = launchOf(setup.runtime, scenario, once);
          queue.enqueueKernel(direct.kernel, direct.args);
          await queue.synchronize();
          expect(result.failure).toBeUndefined();
          expect(result.replayed).toBe(passes > 1);
          expect(result.passes).toBe(passes);
          if (passes > 1) {
            expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, mismatchedRanges: [] });
            expect(result.verified).toBe(true);
          }
          expectSameBytes(await readAll(setup.agent, replayed), await readAll(setup.agent, once));
        } finally {
          await queue.dispose();
          await engine.dispose();
          strategy.dispose?.();
          for (const allocation of [...replayed, ...once]) allocation.free();
        }
        expect(setup.staging.usage().leasedBytes).toBe(0);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
