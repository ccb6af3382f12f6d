import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceAllocation } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy } from '@kreplay/snapshot';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import { expectSameBytes } from '@kreplay/snapshot/test';
import { allocateWith, randomBytes, readAll, runDirectly, useHostSetup } from './test-support/host-setup.js';

const setup = useHostSetup();
afterEach(() => setup.runtime.clearFaults());

const bufferBytes = 128 * 1024;
const scatterArgs = (buffer: DeviceAllocation) => ({ buffer: buffer.address, bytes: buffer.bytes, pageBytes: 4096, fraction: 0.5, seed: 77, source: buffer.address, sourceBytes: 0 });

/**
 * A full-strategy window of 3 passes with verification off, device staging: its copies are
 * capture (#1), the restore before pass 2 (#2), the restore before pass 3 (#3). The fault is
 * injected after the buffers are written.
 */
async function dispatchWithCopyFault(after: number, count: number) {
  const strategy = fullStrategy({ tier: 'device' });
  const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3) });
  const original = randomBytes(bufferBytes, after * 10 + count);
  const buffer = await allocateWith(setup.agent, original);
  const once = await allocateWith(setup.agent, original);
  const queue = setup.agent.createQueue();
  await runDirectly(queue, setup.runtime.kernels.scatterWrite, scatterArgs(once));
  setup.runtime.injectFault({ operation: 'copy', after, count });
  const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer) });
  setup.runtime.clearFaults();
  const [after_, oneRun] = await readAll(setup.agent, [buffer, once]);
  await queue.dispose();
  await engine.dispose();
  buffer.free();
  once.free();
  return { result, memory: after_!, original, oneRun: oneRun! };
}

describe('device failures in the window (host driver)', () => {
  it('a failed capture declines the dispatch, which runs once on untouched memory', async () => {
    const { result, memory, oneRun } = await dispatchWithCopyFault(0, 1);
    expect(result).toMatchObject({ replayed: false, declineCode: 'capture-failed', passes: 1 });
    expect(result.declineReason).toMatch(/injected-fault|inject/);
    expectSameBytes(memory, oneRun);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('a restore that fails once is retried, and the window completes', async () => {
    const { result, memory, oneRun } = await dispatchWithCopyFault(1, 1);
    expect(result).toMatchObject({ replayed: true, passes: 3 });
    expect(result.failure).toBeUndefined();
    expect(result.notes.join(' ')).toMatch(/retried/);
    expectSameBytes(memory, oneRun);
  });

  it('a restore that fails twice is a failure, and memory is put back as before the dispatch', async () => {
    const { result, memory, original } = await dispatchWithCopyFault(1, 2);
    expect(result.failure).toMatchObject({ phase: 'restore', pass: 2, attempts: 2, memory: 'pre-dispatch' });
    expectSameBytes(memory, original);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('dirty-pages learns the written pages again when the restore that learns them is retried', async () => {
    const strategy = dirtyPagesStrategy({ tier: 'device', pageBytes: 4096 });
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(3), verify: 'full' });
    const original = randomBytes(bufferBytes, 5);
    const buffer = await allocateWith(setup.agent, original);
    const once = await allocateWith(setup.agent, original);
    const queue = setup.agent.createQueue();
    const dispatch = (target: DeviceAllocation, seed: number) => ({ queue, kernel: setup.runtime.kernels.scatterWrite, args: { ...scatterArgs(target), seed } });
    try {
      // A first dispatch warms the mirror and leaves a learned list of other pages behind.
      await runDirectly(queue, setup.runtime.kernels.scatterWrite, dispatch(once, 1).args);
      expect((await engine.dispatch(dispatch(buffer, 1))).verified).toBe(true);
      await runDirectly(queue, setup.runtime.kernels.scatterWrite, dispatch(once, 2).args);
      // The page-list copies of the next window: the capture (#0), then the restore that learns (#1).
      setup.runtime.injectFault({ operation: 'conditional-copy', after: 1, count: 1 });
      const result = await engine.dispatch(dispatch(buffer, 2));
      setup.runtime.clearFaults();
      expect(result.notes.join(' ')).toMatch(/retried/);
      expect(result).toMatchObject({ replayed: true, passes: 3, verified: true });
      const [memory, oneRun] = await readAll(setup.agent, [buffer, once]);
      expectSameBytes(memory!, oneRun!);
    } finally {
      await queue.dispose();
      await engine.dispose();
      strategy.dispose?.();
      buffer.free();
      once.free();
    }
  });

  it('when putting memory back fails too, the ranges that may not be restored are listed', async () => {
    const { result } = await dispatchWithCopyFault(2, 3);
    expect(result.failure).toMatchObject({ phase: 'restore', pass: 3, memory: 'unknown' });
    expect(result.failure!.rangesNotRestored.length).toBeGreaterThan(0);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('10^4 small dispatches with faults injected now and then leak nothing', async () => {
    const loopStaging = setup.createStaging();
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: loopStaging, strategy: fullStrategy(), passes: fixedPasses(2) });
    const buffer = await allocateWith(setup.agent, randomBytes(256, 1));
    const queue = setup.agent.createQueue();
    const args = { buffer: buffer.address, bytes: 256, pageBytes: 256, fraction: 1, seed: 3, source: buffer.address, sourceBytes: 0 };
    await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args });
    const allocationsBefore = setup.tracker.allocations(setup.agent.id).length;
    const hostBefore = setup.tracker.hostAllocations().length;
    const codes = new Map<string, number>();
    for (let index = 0; index < 10_000; index += 1) {
      if (index % 97 === 0) setup.runtime.injectFault({ operation: index % 2 === 0 ? 'copy' : 'kernel', after: index % 3, count: 1 + (index % 4) });
      const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args });
      const outcome = result.failure ? `failure-${result.failure.phase}` : (result.declineCode ?? 'replayed');
      codes.set(outcome, (codes.get(outcome) ?? 0) + 1);
      if (index % 97 === 96) setup.runtime.clearFaults();
    }
    setup.runtime.clearFaults();
    expect(loopStaging.usage().leasedBytes).toBe(0);
    expect(setup.tracker.allocations(setup.agent.id).length).toBe(allocationsBefore);
    expect(setup.tracker.hostAllocations().length).toBe(hostBefore);
    expect(codes.get('replayed')).toBeGreaterThan(9000);
    expect(codes.size).toBeGreaterThan(1);
    await queue.dispose();
    await engine.dispose();
    buffer.free();
  }, 60_000);
});
