/**
 * The soak: 10,000 dispatches over two queues, each with an engine of its own over one host runtime
 * (one dirty-pages with full verification, one full with restore verification), with faults injected
 * into captures, restores and verification hashes all along. At the end each queue's memory is what
 * one plain run of the dispatches leaves (a dispatch whose window failed and was put back as before
 * it is dispatched again, as an application would; one whose read-back failed after its passes left
 * memory as the dispatch leaves it), every result says what happened to it, and
 * nothing the engines and strategies held is left behind.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceAllocation, FaultSpec, KernelArguments, KernelDescriptor, Queue } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy } from '@kreplay/snapshot';
import { expectSameBytes } from '@kreplay/snapshot/test';
import type { DispatchResult } from './dispatch-result.js';
import { fixedPasses } from './fixed-passes.js';
import { createReplayEngine, type ReplayEngine } from './replay-engine.js';
import { allocateWith, openHostSetup, randomFloatBytes } from './test-support/host-setup.js';

const dispatchesPerQueue = 5000;
const elements = 4096;
/** The faults, in turn: capture and restore copies, the conditional copies dirty-pages captures and restores with, and verification hashes. */
const faultKinds: readonly FaultSpec['operation'][] = ['copy', 'conditional-copy', 'hash', 'copy', 'hash'];

interface Outcome {
  replayed: number;
  declinedAfterCaptureFault: number;
  failedAndRetried: number;
  /** The account's read-back failed after the passes: memory is as the dispatch left it. */
  failedAfterPasses: number;
  verified: number;
  incomplete: number;
  notesOfRetries: number;
}

describe('fault soak (host driver)', () => {
  it('10,000 dispatches over two queues and engines with faults in captures, restores and verification lose no byte and leak nothing', { timeout: 600_000 }, async () => {
    const setup = await openHostSetup();
    const { runtime, agent, tracker } = setup;
    const staging = setup.createStaging();
    const allocationsBefore = tracker.allocations(agent.id).length;
    const memoryBefore = agent.memoryInfo();
    const kernels = runtime.kernels;
    const buffers: DeviceAllocation[] = [];
    const references: DeviceAllocation[] = [];
    for (const seed of [11, 12]) {
      const data = randomFloatBytes(elements, seed);
      buffers.push(await allocateWith(agent, data));
      references.push(await allocateWith(agent, data));
    }
    const strategies = [dirtyPagesStrategy({ tier: 'device', pageBytes: 4096 }), fullStrategy({ tier: 'host-pinned' })];
    const engines: ReplayEngine[] = [
      createReplayEngine({ runtime, tracker, staging, strategy: strategies[0]!, passes: fixedPasses(3), verify: 'full' }),
      createReplayEngine({ runtime, tracker, staging, strategy: strategies[1]!, passes: fixedPasses(3), verify: 'restore' }),
    ];
    const queues: Queue[] = [agent.createQueue(), agent.createQueue()];
    /** The i-th dispatch of a queue: the in-place stencil, which reads what the one before left, or a scatter write. */
    const dispatchOf = (target: DeviceAllocation, index: number): { kernel: KernelDescriptor; args: KernelArguments } =>
      index % 3 === 2
        ? { kernel: kernels.scatterWrite, args: { buffer: target.address, bytes: target.bytes, pageBytes: 4096, fraction: 0.25, seed: index, source: target.address, sourceBytes: 0 } }
        : { kernel: kernels.stencil, args: { buffer: target.address, count: elements } };
    const outcomes: Outcome[] = [0, 1].map(() => ({ replayed: 0, declinedAfterCaptureFault: 0, failedAndRetried: 0, failedAfterPasses: 0, verified: 0, incomplete: 0, notesOfRetries: 0 }));
    const unexpected: string[] = [];
    const tally = (outcome: Outcome, result: DispatchResult, index: number): boolean => {
      if (result.verification.status === 'mismatch') unexpected.push(`dispatch ${index}: verification mismatch`);
      if (result.failure?.memory === 'dispatch-result') {
        outcome.failedAfterPasses += 1;
        return true;
      }
      if (result.failure !== undefined) {
        if (result.failure.memory !== 'pre-dispatch') unexpected.push(`dispatch ${index}: a failure left memory ${result.failure.memory}`);
        outcome.failedAndRetried += 1;
        return false;
      }
      if (result.replayed) outcome.replayed += 1;
      else if (result.declineCode === 'capture-failed') outcome.declinedAfterCaptureFault += 1;
      else unexpected.push(`dispatch ${index}: declined (${result.declineReason ?? 'no reason'})`);
      if (result.verification.status === 'verified') outcome.verified += 1;
      if (result.verification.status === 'incomplete') outcome.incomplete += 1;
      if (result.notes.some((note) => /retried/.test(note))) outcome.notesOfRetries += 1;
      return true;
    };
    const run = async (queueIndex: number) => {
      const outcome = outcomes[queueIndex]!;
      for (let index = 0; index < dispatchesPerQueue; index += 1) {
        if (queueIndex === 0 && index % 40 === 7) {
          const turn = Math.floor(index / 40);
          runtime.injectFault({ operation: faultKinds[turn % faultKinds.length]!, after: turn % 4, count: 1 + (turn % 2) });
        }
        const dispatch = dispatchOf(buffers[queueIndex]!, index);
        let attempts = 0;
        for (;;) {
          attempts += 1;
          const result = await engines[queueIndex]!.dispatch({ queue: queues[queueIndex]!, ...dispatch });
          if (tally(outcome, result, index)) break;
          if (attempts === 3) {
            unexpected.push(`dispatch ${index} of queue ${queueIndex} failed ${attempts} times`);
            break;
          }
        }
      }
    };
    await Promise.all([run(0), run(1)]);
    runtime.clearFaults();

    // One plain run of the same dispatches, each once, on the references.
    for (const [queueIndex, reference] of references.entries()) {
      for (let index = 0; index < dispatchesPerQueue; index += 1) {
        const { kernel, args } = dispatchOf(reference, index);
        queues[queueIndex]!.enqueueKernel(kernel, args);
      }
      await queues[queueIndex]!.synchronize();
    }
    expect(unexpected).toEqual([]);
    for (const [queueIndex, buffer] of buffers.entries()) {
      expectSameBytes(await agent.read(buffer.address, buffer.bytes), await agent.read(references[queueIndex]!.address, references[queueIndex]!.bytes));
    }
    const total = (key: keyof Outcome) => outcomes.reduce((sum, outcome) => sum + outcome[key], 0);
    // Each kind of fault was met and said so in the results.
    expect(total('declinedAfterCaptureFault')).toBeGreaterThan(0);
    expect(total('notesOfRetries') + total('failedAndRetried')).toBeGreaterThan(0);
    expect(total('incomplete')).toBeGreaterThan(0);
    expect(total('verified')).toBeGreaterThan(dispatchesPerQueue);
    expect(total('replayed') + total('declinedAfterCaptureFault') + total('failedAfterPasses')).toBe(2 * dispatchesPerQueue);

    // Nothing held: what the strategies retain across dispatches (dirty-pages' mirror) goes back to
    // staging's pools when they are disposed, and disposing everything returns every byte.
    for (const engine of engines) await engine.dispose();
    for (const strategy of strategies) strategy.dispose?.();
    expect(staging.usage().leasedBytes).toBe(0);
    for (const queue of queues) await queue.dispose();
    for (const allocation of [...buffers, ...references]) allocation.free();
    staging.dispose();
    expect(tracker.allocations(agent.id)).toHaveLength(allocationsBefore);
    expect(agent.memoryInfo()).toEqual(memoryBefore);
    await setup.dispose();
  });
});
