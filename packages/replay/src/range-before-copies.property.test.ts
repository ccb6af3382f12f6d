import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { randomFloatBytes, readAll, useHostSetup, usePlainHostRuntime } from './test-support/host-setup.js';
import {
  allocateCase,
  allocateCopySource,
  allocateHashedPasses,
  expectPlainInputsInEveryPass,
  renderCopies,
  renderStep,
  runSequencePlainly,
  sequenceWithCopiesCase,
  testPageBytes,
} from './test-support/range-sequences.js';

const setup = useHostSetup();
/** A second runtime: where each sequence and its copies run once, without replay. */
const plain = usePlainHostRuntime();

const floats = (bytes: number, seed: number) => randomFloatBytes(bytes / 4, seed);
const strategies = {
  full: () => fullStrategy({ tier: 'auto' }),
  'write-set': () => writeSetStrategy({ tier: 'auto' }),
  'dirty-pages': () => dirtyPagesStrategy({ tier: 'auto', pageBytes: testPageBytes }),
} as const;

describe('range replay with copies before its dispatches, on the host driver (property)', () => {
  for (const [name, make] of Object.entries(strategies)) {
    it(`${name}: memory after the range is one plain run's, every pass starts from the same memory, each dispatch sees the plain run's input`, async () => {
      const staging = setup.createStaging();
      const strategy = make();
      const queue = setup.agent.createQueue();
      try {
        await fc.assert(
          fc.asyncProperty(sequenceWithCopiesCase, async (testCase) => {
            const expected = await runSequencePlainly(plain.runtime, testCase, floats);
            const buffers = await allocateCase(setup.agent, testCase, floats);
            // The copies' source is memory the caller owns, outside every snapshot (as a capture replay's staging).
            const source = await allocateCopySource(setup.agent, testCase, floats);
            setup.tracker.tag(source.address, 'excluded');
            const dispatches = testCase.steps.length;
            const hashed = allocateHashedPasses(setup.agent, setup.tracker, testCase.passes, buffers, dispatches);
            const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy, passes: hashed.passes, verify: 'full' });
            try {
              const result = await engine.dispatchRange({
                queue,
                dispatches: testCase.steps.map((step, index) => ({ ...renderStep(setup.runtime, buffers, step), before: renderCopies(buffers, source, testCase.copies[index]!) })),
              });
              expect(result).toMatchObject({ replayed: true, passes: testCase.passes, verified: true, strategy: name });
              expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, complete: true });
              expectSameBytes(await readAll(setup.agent, buffers), expected.bytes, 'memory after the range');
              await expectPlainInputsInEveryPass(setup.agent, hashed, testCase.passes, dispatches, expected);
            } finally {
              await engine.dispose();
              for (const allocation of [...buffers, source, hashed.hashes]) allocation.free();
            }
          }),
          { numRuns: 40, seed: name.length * 17 },
        );
      } finally {
        await queue.dispose();
        strategy.dispose?.();
      }
    });
  }
});
