import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type DeviceAllocation, type Runtime } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy, type StagingTierChoice } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { openHostSetup, randomFloatBytes, readAll, type HostSetup } from './test-support/host-setup.js';
import { allocateCase, hashInto, hashingPasses, renderStep, sequenceCase, testPageBytes, type SequenceCase } from './test-support/range-sequences.js';

let setup: HostSetup;
/** A second runtime: where each sequence runs once, without replay. */
let plain: Runtime;
beforeAll(async () => {
  setup = await openHostSetup();
  plain = await openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 64 * 2 ** 20, threads: 2 } });
});
afterAll(async () => {
  await plain.dispose();
  await setup.dispose();
});

const floats = (bytes: number, seed: number) => randomFloatBytes(bytes / 4, seed);
const strategies = {
  full: (tier: StagingTierChoice) => fullStrategy({ tier }),
  'write-set': (tier: StagingTierChoice) => writeSetStrategy({ tier }),
  'dirty-pages': (tier: StagingTierChoice) => dirtyPagesStrategy({ tier, pageBytes: testPageBytes }),
} as const;
const tiers: StagingTierChoice[] = ['device', 'host-pinned', 'host-pageable', 'auto'];

/** The sequence run once on the plain runtime: its memory after, and its hashes before each dispatch. */
async function runPlainly(testCase: SequenceCase): Promise<{ bytes: Uint8Array[]; inputs: BigUint64Array }> {
  const agent = plain.agents[0]!;
  const buffers = await allocateCase(agent, testCase, floats);
  const pagesPerSlot = buffers.reduce((total, buffer) => total + buffer.bytes / testPageBytes, 0);
  const hashes = agent.allocate(testCase.steps.length * pagesPerSlot * 8);
  const queue = agent.createQueue();
  try {
    testCase.steps.forEach((step, index) => {
      hashInto(queue, buffers, hashes, pagesPerSlot, index);
      const { kernel, args } = renderStep(plain, buffers, step);
      queue.enqueueKernel(kernel, args);
    });
    await queue.synchronize();
    const inputs = new BigUint64Array((await agent.read(hashes.address, hashes.bytes)).slice().buffer);
    return { bytes: await readAll(agent, buffers), inputs };
  } finally {
    await queue.dispose();
    for (const allocation of [...buffers, hashes]) allocation.free();
  }
}

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
              const expected = await runPlainly(testCase);
              const buffers = await allocateCase(setup.agent, testCase, floats);
              const dispatches = testCase.steps.length;
              const pagesPerSlot = buffers.reduce((total, buffer) => total + buffer.bytes / testPageBytes, 0);
              const hashes: DeviceAllocation = setup.agent.allocate(testCase.passes * (dispatches + 1) * pagesPerSlot * 8);
              setup.tracker.tag(hashes.address, 'excluded');
              const passes = hashingPasses(testCase.passes, buffers, hashes, dispatches);
              const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy, passes, verify: 'full' });
              try {
                const result = await engine.dispatchRange({ queue, dispatches: testCase.steps.map((step) => renderStep(setup.runtime, buffers, step)) });
                expect(result).toMatchObject({ replayed: true, passes: testCase.passes, verified: true, strategy: name });
                expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, complete: true });
                expect(result.dispatches.map((dispatch) => dispatch.kernelName)).toEqual(testCase.steps.map((step) => step.kernel));
                expectSameBytes(await readAll(setup.agent, buffers), expected.bytes, 'memory after the range');
                const taken = new BigUint64Array((await setup.agent.read(hashes.address, hashes.bytes)).slice().buffer);
                const slot = (pass: number, index: number) => Array.from(taken.subarray(((pass - 1) * (dispatches + 1) + index) * pagesPerSlot, ((pass - 1) * (dispatches + 1) + index + 1) * pagesPerSlot));
                for (let pass = 1; pass <= testCase.passes; pass += 1) {
                  expect(slot(pass, 0), `memory at the start of pass ${pass}`).toEqual(slot(1, 0));
                  for (let index = 0; index < dispatches; index += 1) {
                    const plainInput = Array.from(expected.inputs.subarray(index * pagesPerSlot, (index + 1) * pagesPerSlot));
                    expect(slot(pass, index + 1), `input of dispatch ${index} in pass ${pass}`).toEqual(plainInput);
                  }
                }
              } finally {
                await engine.dispose();
                for (const allocation of [...buffers, hashes]) allocation.free();
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
