import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import type { QuiesceMode } from './engine-options.js';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import type { VerifyMode } from './verification-report.js';
import { allocateWith, randomFloatBytes, useHostSetup } from './test-support/host-setup.js';
import { regionWriterArbitrary, regionWriterLaunch } from './test-support/region-writers.js';

const setup = useHostSetup();

const strategies = { full: fullStrategy, 'write-set': writeSetStrategy, 'dirty-pages': dirtyPagesStrategy } as const;

const engineArbitrary = fc.record({
  strategy: fc.constantFrom(...(Object.keys(strategies) as (keyof typeof strategies)[])),
  tier: fc.constantFrom('device' as const, 'host-pinned' as const, 'auto' as const),
  quiesce: fc.constantFrom<QuiesceMode>('queue', 'agent'),
  verify: fc.constantFrom<VerifyMode>('restore', 'full'),
  passes: fc.integer({ min: 2, max: 4 }),
});

/** A writer of one queue's own slot: which engine dispatches it, and which kernel it runs there. */
const writerArbitrary = (engines: number) => fc.record({ engine: fc.nat(engines - 1), writer: regionWriterArbitrary });

const caseArbitrary = fc.integer({ min: 2, max: 3 }).chain((engineCount) =>
  fc.record({
    engines: fc.array(engineArbitrary, { minLength: engineCount, maxLength: engineCount }),
    // One slot per queue, 4 bytes to 160 KiB (several verification pages), multiples of 4.
    slots: fc.array(fc.integer({ min: 1, max: 40_960 }).map((words) => words * 4), { minLength: 2, maxLength: 4 }),
    rounds: fc.array(fc.array(writerArbitrary(engineCount), { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    seed: fc.nat(),
  }),
);

describe('several engines and queues on one runtime (host driver)', () => {
  it('writers of disjoint slots of one allocation, through random engines: memory ends as a plain run leaves it, and every dispatch verifies', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ engines: engineSpecs, slots, rounds, seed }) => {
        const owned = engineSpecs.map((spec) => strategies[spec.strategy]({ tier: spec.tier }));
        const engines = engineSpecs.map((spec, index) =>
          createReplayEngine({
            runtime: setup.runtime,
            tracker: setup.tracker,
            staging: setup.staging,
            strategy: owned[index]!,
            passes: fixedPasses(spec.passes),
            quiesce: spec.quiesce,
            verify: spec.verify,
          }),
        );
        const totalBytes = slots.reduce((sum, bytes) => sum + bytes, 0);
        const initial = randomFloatBytes(totalBytes / 4, seed);
        const replayed = await allocateWith(setup.agent, initial);
        const plain = await allocateWith(setup.agent, initial);
        const offsets = slots.map((_, index) => slots.slice(0, index).reduce((sum, bytes) => sum + bytes, 0));
        const queues = slots.map(() => setup.agent.createQueue());
        try {
          for (const round of rounds) {
            const results = await Promise.all(
              slots.map((bytes, slot) => {
                const { engine, writer } = round[slot]!;
                return engines[engine]!.dispatch({ queue: queues[slot]!, ...regionWriterLaunch(setup.runtime, writer, replayed.address + offsets[slot]!, bytes) });
              }),
            );
            results.forEach((result, slot) => {
              expect(result.failure).toBeUndefined();
              expect(result.replayed).toBe(true);
              expect(result.verified).toBe(true);
              expect(result.verification.mismatchedRanges).toEqual([]);
              expect(result.passes).toBe(engineSpecs[round[slot]!.engine]!.passes);
            });
          }
          const direct = queues[0]!;
          for (const round of rounds) {
            slots.forEach((bytes, slot) => {
              const { kernel, args } = regionWriterLaunch(setup.runtime, round[slot]!.writer, plain.address + offsets[slot]!, bytes);
              direct.enqueueKernel(kernel, args);
            });
          }
          await direct.synchronize();
          expectSameBytes(await setup.agent.read(replayed.address, totalBytes), await setup.agent.read(plain.address, totalBytes));
        } finally {
          for (const queue of queues) await queue.dispose();
          for (const engine of engines) await engine.dispose();
          for (const strategy of owned) strategy.dispose?.();
          replayed.free();
          plain.free();
        }
        expect(setup.staging.usage().leasedBytes).toBe(0);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
