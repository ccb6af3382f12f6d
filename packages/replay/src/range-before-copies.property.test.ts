import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Agent, type DeviceAllocation, type Runtime } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { createReplayEngine } from './replay-engine.js';
import { openHostSetup, randomFloatBytes, readAll, type HostSetup } from './test-support/host-setup.js';
import {
  allocateCase,
  hashInto,
  hashingPasses,
  renderCopies,
  renderStep,
  sequenceWithCopiesCase,
  sourcePages,
  testPageBytes,
  type SequenceWithCopiesCase,
} from './test-support/range-sequences.js';

let setup: HostSetup;
/** A second runtime: where each sequence and its copies run once, without replay. */
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
  full: () => fullStrategy({ tier: 'auto' }),
  'write-set': () => writeSetStrategy({ tier: 'auto' }),
  'dirty-pages': () => dirtyPagesStrategy({ tier: 'auto', pageBytes: testPageBytes }),
} as const;

/** The source of the copies: the same floats on every runtime. */
async function sourceOf(agent: Agent, testCase: SequenceWithCopiesCase): Promise<DeviceAllocation> {
  const source = agent.allocate(sourcePages * testPageBytes);
  await agent.write(source.address, floats(sourcePages * testPageBytes, testCase.seed + 101));
  return source;
}

/** The sequence and its copies run once on the plain runtime: memory after, and the hashes of each dispatch's input. */
async function runPlainly(testCase: SequenceWithCopiesCase): Promise<{ bytes: Uint8Array[]; inputs: BigUint64Array }> {
  const agent = plain.agents[0]!;
  const buffers = await allocateCase(agent, testCase, floats);
  const source = await sourceOf(agent, testCase);
  const pagesPerSlot = buffers.reduce((total, buffer) => total + buffer.bytes / testPageBytes, 0);
  const hashes = agent.allocate(testCase.steps.length * pagesPerSlot * 8);
  const queue = agent.createQueue();
  try {
    testCase.steps.forEach((step, index) => {
      for (const segment of renderCopies(buffers, source, testCase.copies[index]!)) queue.enqueueCopy([segment]);
      hashInto(queue, buffers, hashes, pagesPerSlot, index);
      const { kernel, args } = renderStep(plain, buffers, step);
      queue.enqueueKernel(kernel, args);
    });
    await queue.synchronize();
    const inputs = new BigUint64Array((await agent.read(hashes.address, hashes.bytes)).slice().buffer);
    return { bytes: await readAll(agent, buffers), inputs };
  } finally {
    await queue.dispose();
    for (const allocation of [...buffers, source, hashes]) allocation.free();
  }
}

describe('range replay with copies before its dispatches, on the host driver (property)', () => {
  for (const [name, make] of Object.entries(strategies)) {
    it(`${name}: memory after the range is one plain run's, every pass starts from the same memory, each dispatch sees the plain run's input`, async () => {
      const staging = setup.createStaging();
      const strategy = make();
      const queue = setup.agent.createQueue();
      try {
        await fc.assert(
          fc.asyncProperty(sequenceWithCopiesCase, async (testCase) => {
            const expected = await runPlainly(testCase);
            const buffers = await allocateCase(setup.agent, testCase, floats);
            // The copies' source is memory the caller owns, outside every snapshot (as a capture replay's staging).
            const source = await sourceOf(setup.agent, testCase);
            setup.tracker.tag(source.address, 'excluded');
            const dispatches = testCase.steps.length;
            const pagesPerSlot = buffers.reduce((total, buffer) => total + buffer.bytes / testPageBytes, 0);
            const hashes: DeviceAllocation = setup.agent.allocate(testCase.passes * (dispatches + 1) * pagesPerSlot * 8);
            setup.tracker.tag(hashes.address, 'excluded');
            const passes = hashingPasses(testCase.passes, buffers, hashes, dispatches);
            const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging, strategy, passes, verify: 'full' });
            try {
              const result = await engine.dispatchRange({
                queue,
                dispatches: testCase.steps.map((step, index) => ({ ...renderStep(setup.runtime, buffers, step), before: renderCopies(buffers, source, testCase.copies[index]!) })),
              });
              expect(result).toMatchObject({ replayed: true, passes: testCase.passes, verified: true, strategy: name });
              expect(result.verification).toMatchObject({ restoresExact: true, passOutputsEqual: true, complete: true });
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
              for (const allocation of [...buffers, source, hashes]) allocation.free();
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
