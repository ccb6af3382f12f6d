import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '@kreplay/native';
import { fixedPasses } from './fixed-passes.js';
import { fakeRequest, fakeSetup } from './test-support/fake-setup.js';
import { testStrategy } from './test-support/test-strategy.js';

/** Copies of a window with N passes and the test strategy: capture #0, restore before pass i: #(i-1). */
async function incrementWithFault(fault: FaultSpec | FaultSpec[], verify: 'off' | 'full' = 'off') {
  const setup = fakeSetup();
  const strategy = testStrategy();
  const engine = setup.engine({ strategy, passes: fixedPasses(3), verify });
  const buffer = setup.buffer(70_000, 20);
  const queue = setup.queue();
  for (const spec of [fault].flat()) setup.runtime.injectFault(spec);
  const result = await engine.dispatch(fakeRequest(queue, 'increment', { buffer: buffer.address, bytes: buffer.bytes }));
  setup.runtime.clearFaults();
  const kernels = queue.log.filter((entry) => entry === 'kernel increment').length;
  return { setup, strategy, buffer, result, kernels };
}

describe('failures in the window (fake runtime)', () => {
  it('declines a dispatch whose capture failed, runs it once, and leaves memory as one run does', async () => {
    const { result, buffer, kernels, setup, strategy } = await incrementWithFault({ operation: 'copy', after: 0, count: 1 });
    expect(result).toMatchObject({ replayed: false, declineCode: 'capture-failed', passes: 1, tier: null });
    expect(result.declineReason).toMatch(/capture failed on the device: .*injected-fault/);
    expect(result.failure).toBeUndefined();
    expect(kernels).toBe(1);
    expect(buffer.data.every((byte) => byte === 21)).toBe(true);
    expect(strategy.calls.release).toBe(1);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('retries a failed restore once and finishes the passes', async () => {
    const { result, buffer, kernels } = await incrementWithFault({ operation: 'copy', after: 1, count: 1 }, 'full');
    expect(result).toMatchObject({ replayed: true, passes: 3, verified: true });
    expect(result.failure).toBeUndefined();
    expect(result.notes.join(' ')).toMatch(/restore before pass 2 failed .*retried/);
    expect(kernels).toBe(3);
    expect(buffer.data.every((byte) => byte === 21)).toBe(true);
  });

  it('reports a restore that failed twice, and puts memory back as before the dispatch', async () => {
    const { result, buffer, strategy, setup } = await incrementWithFault({ operation: 'copy', after: 2, count: 2 });
    expect(result.failure).toMatchObject({ phase: 'restore', pass: 3, attempts: 2, memory: 'pre-dispatch', rangesNotRestored: [] });
    expect(result.failure!.error.code).toBe('injected-fault');
    expect(result.passes).toBe(2);
    expect(buffer.data.every((byte) => byte === 20)).toBe(true);
    expect(strategy.calls.restore).toEqual([2, 3, 3, 3]);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('lists the ranges that may not be restored when the last restore attempt fails too', async () => {
    const { result, buffer, setup } = await incrementWithFault({ operation: 'copy', after: 1, count: 3 });
    expect(result.failure).toMatchObject({ phase: 'restore', pass: 2, memory: 'unknown' });
    expect(result.failure!.rangesNotRestored).toEqual([{ address: buffer.address, bytes: buffer.bytes }]);
    expect(result.notes.join(' ')).toMatch(/putting memory back .* failed too/);
    expect(setup.staging.usage().leasedBytes).toBe(0);
  });

  it('reports a kernel that failed in pass 2 and restores memory', async () => {
    const { result, buffer } = await incrementWithFault({ operation: 'kernel', after: 1, count: 1 });
    expect(result.failure).toMatchObject({ phase: 'pass', pass: 2, memory: 'pre-dispatch' });
    expect(result.passes).toBe(1);
    expect(buffer.data.every((byte) => byte === 20)).toBe(true);
  });

  it('reports a failed single run with the ranges the kernel may have written', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ passes: fixedPasses(1) });
    const buffer = setup.buffer(100);
    setup.runtime.injectFault({ operation: 'kernel' });
    const result = await engine.dispatch(fakeRequest(setup.queue(), 'increment', { buffer: buffer.address, bytes: 100 }));
    expect(result.failure).toMatchObject({ phase: 'pass', pass: 1, memory: 'unknown', rangesNotRestored: [{ address: buffer.address, bytes: 100 }] });
    expect(result.passes).toBe(0);
  });

  it('retries a failed verification hash, then skips it and reports verification incomplete', async () => {
    // Hash operations of a full window of 3 passes: the baseline after capture, then the hash after
    // pass 1 is the 2nd. A retry starts from that phase and hashes after pass 1 again (the 3rd).
    const once = await incrementWithFault([{ operation: 'hash', after: 1, count: 1 }], 'full');
    expect(once.result).toMatchObject({ verified: true, passes: 3 });
    expect(once.result.notes.join(' ')).toMatch(/verification hash failed .*retried/);
    expect(once.buffer.data[0]).toBe(21);
    const twice = await incrementWithFault([{ operation: 'hash', after: 1, count: 1 }, { operation: 'hash', after: 2, count: 1 }], 'full');
    // Not proven either way: incomplete, which reads differently from a mismatch.
    expect(twice.result).toMatchObject({ verified: null, passes: 3 });
    expect(twice.result.verification).toMatchObject({ status: 'incomplete', complete: false, passOutputsEqual: null, restoresExact: true });
    expect(twice.result.notes.join(' ')).toMatch(/skipped/);
    expect(twice.buffer.data[0]).toBe(21);
  });

  it('forgives a failure the queue had before the window began', async () => {
    const setup = fakeSetup();
    const engine = setup.engine({ verify: 'restore' });
    const buffer = setup.buffer(100, 0);
    const queue = setup.queue();
    setup.runtime.injectFault({ operation: 'kernel' });
    queue.enqueueKernel(setup.runtime.kernels.fill, { destination: buffer.address, bytes: 100, value: 5 });
    const result = await engine.dispatch(fakeRequest(queue, 'increment', { buffer: buffer.address, bytes: 100 }));
    expect(result).toMatchObject({ replayed: true, verified: true });
    expect(result.notes.join(' ')).toMatch(/had failed before the window began/);
    expect(buffer.data[0]).toBe(1);
  });
});
