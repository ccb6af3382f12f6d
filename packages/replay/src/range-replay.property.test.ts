import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy, type StagingTierChoice } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { randomFloatBytes, readAll, useHostSetup, usePlainHostRuntime } from './test-support/host-setup.js';
import { allocateCase, allocateHashedPasses, expectPlainInputsInEveryPass, renderStep, runSequencePlainly, sequenceCase, testPageBytes } from './test-support/range-sequences.js';

const setup = useHostSetup();
/** A second runtime: where each sequence runs once, without replay. */
const plain = usePlainHostRuntime();

const floats = (bytes: number, seed: number) => randomFloatBytes(bytes / 4, seed);
const strategies = {
  full: (tier: StagingTierChoice) => fullStrategy({ tier }),
  'write-set': (tier: StagingTierChoice) => writeSetStrategy({ tier }),
  'dirty-pages': (tier: StagingTierChoice) => dirtyPagesStrategy({ tier, pageBytes: testPageBytes }),
} as const;
const tiers: StagingTierChoice[] = ['device', 'host-pinned', 'host-pageable', 'auto'];

describe('range replay on the host driver (property)', () => {
  for (const [name, make] of Object.entries(strategies)) {
    for (const tier of tiers) {
      it(`${name} / ${tier}: memory after the range is one plain run's, and every pass sees the same inputs`, async () => {
        const staging = setup.createStaging();
        const strategy = make(tier);
        const queue = setup.agent.createQueue();
        try {
          await fc.assert(
            fc.asyncProperty(sequenceCase, async (testCase) => {
              const expected = await runSequencePlainly(plain.runtime, testCase, floats);
              const buffers = await allocateCase(setup.agent, testCase, floats);
              const dispatches = testCase.steps.length;
              const hashed = allocateHashedPasses(setup.agent, setup.tracker, testCase.passes, buffers, dispatches);
              const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy, passes: hashed.passes, verify: 'full' });
              try {
                const result = await engine.dispatchRange({ queue, dispatches: testCase.steps.map((step) => renderStep(setup.runtime, buffers, step)) });
                expect(result).toMatchObject({ replayed: true, passes: testCase.passes, verified: true, strategy: name });
                expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, complete: true });
                expect(result.dispatches.map((dispatch) => dispatch.kernelName)).toEqual(testCase.steps.map((step) => step.kernel));
                expectSameBytes(await readAll(setup.agent, buffers), expected.bytes, 'memory after the range');
                await expectPlainInputsInEveryPass(setup.agent, hashed, testCase.passes, dispatches, expected);
              } finally {
                await engine.dispose();
                for (const allocation of [...buffers, hashed.hashes]) allocation.free();
              }
            }),
            { numRuns: 25, seed: name.length * 31 + tier.length },
          );
        } finally {
          await queue.dispose();
          strategy.dispose?.();
        }
      });
    }
  }
});
