import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceAllocation } from '@kreplay/native';
import { fullStrategy, type SnapshotStrategy, type Staging } from '@kreplay/snapshot';
import { createReplayEngine } from './replay-engine.js';
import { fixedPasses } from './fixed-passes.js';
import type { VerifyMode } from './verification-report.js';
import { allocateWith, randomBytes, randomFloatBytes, useHostSetup } from './test-support/host-setup.js';
import { restoreNothingStrategy } from '@kreplay/snapshot/test';

const setup = useHostSetup();
afterEach(() => setup.runtime.clearFaults());

const scatterArgs = (buffer: DeviceAllocation) => ({ buffer: buffer.address, bytes: buffer.bytes, pageBytes: 4096, fraction: 0.5, seed: 11, source: buffer.address, sourceBytes: 0 });

async function dispatchScatter(options: { strategy?: SnapshotStrategy; staging?: Staging; passes?: number; verify?: VerifyMode }) {
  const strategy = options.strategy ?? fullStrategy({ tier: 'device' });
  const engine = createReplayEngine({
    runtime: setup.runtime,
    tracker: setup.tracker,
    staging: options.staging ?? setup.staging,
    strategy,
    passes: fixedPasses(options.passes ?? 3),
    verify: options.verify ?? 'full',
  });
  const buffer = await allocateWith(setup.agent, randomBytes(128 * 1024, 3));
  const queue = setup.agent.createQueue();
  try {
    return await engine.dispatch({ queue, kernel: setup.runtime.kernels.scatterWrite, args: scatterArgs(buffer) });
  } finally {
    await queue.dispose();
    await engine.dispose();
    strategy.dispose?.();
    buffer.free();
  }
}

describe('what verification reports (host driver)', () => {
  it('a declined dispatch verified nothing: null, status not-run', async () => {
    const tight = setup.createStaging({ hostBytesLimit: 4 });
    const result = await dispatchScatter({ strategy: fullStrategy({ tier: 'host-pinned' }), staging: tight });
    expect(result).toMatchObject({ replayed: false, declineCode: 'snapshot-declined', verified: null });
    expect(result.verification).toMatchObject({ mode: 'full', status: 'not-run', restoresExact: null, passOutputsEqual: null });
  });

  it('one pass verified nothing: null, status not-run', async () => {
    const result = await dispatchScatter({ passes: 1 });
    expect(result).toMatchObject({ replayed: false, passes: 1, verified: null });
    expect(result.verification.status).toBe('not-run');
  });

  it('verification off verified nothing: null, status not-run', async () => {
    const result = await dispatchScatter({ verify: 'off' });
    expect(result).toMatchObject({ replayed: true, passes: 3, verified: null });
    expect(result.verification).toMatchObject({ mode: 'off', status: 'not-run' });
  });

  it('an exact replay is verified: true, status verified', async () => {
    const result = await dispatchScatter({});
    expect(result).toMatchObject({ replayed: true, verified: true });
    expect(result.verification).toMatchObject({ status: 'verified', complete: true, restoresExact: true, passOutputsEqual: true });
  });

  it('a restore that restores nothing is a mismatch: false, status mismatch', async () => {
    const result = await dispatchScatter({ strategy: restoreNothingStrategy(fullStrategy({ tier: 'device' })), verify: 'restore' });
    expect(result).toMatchObject({ replayed: true, verified: false });
    expect(result.verification).toMatchObject({ status: 'mismatch', complete: true, restoresExact: false });
    expect(result.verification.mismatchedRanges.length).toBeGreaterThan(0);
  });

  it('a kernel whose passes differ is a mismatch, marked nondeterministic', async () => {
    const count = 1 << 16;
    const input = await allocateWith(setup.agent, randomFloatBytes(count, 5));
    const output = setup.agent.allocate(4);
    const strategy = fullStrategy({ tier: 'device' });
    const engine = createReplayEngine({ runtime: setup.runtime, tracker: setup.tracker, staging: setup.staging, strategy, passes: fixedPasses(8), verify: 'full' });
    const queue = setup.agent.createQueue();
    try {
      let seen = false;
      for (let attempt = 0; attempt < 20 && !seen; attempt += 1) {
        const result = await engine.dispatch({ queue, kernel: setup.runtime.kernels.accumulate, args: { input: input.address, count, output: output.address } });
        expect(result.verification.restoresExact).toBe(true);
        if (result.verification.passOutputsEqual === false) {
          seen = true;
          expect(result).toMatchObject({ verified: false, verification: { status: 'mismatch', nondeterministic: true } });
        } else {
          expect(result).toMatchObject({ verified: true, verification: { status: 'verified' } });
        }
      }
      expect(seen).toBe(true);
    } finally {
      await queue.dispose();
      await engine.dispose();
      strategy.dispose?.();
      input.free();
      output.free();
    }
  });

  it('a hash that failed twice leaves verification incomplete: null, status incomplete, unlike a mismatch', async () => {
    // The window's hashes: the baseline (#0), after pass 1 (#1); the hash after pass 1 fails, and again when retried.
    setup.runtime.injectFault({ operation: 'hash', after: 1, count: 2 });
    const result = await dispatchScatter({});
    expect(result.failure).toBeUndefined();
    expect(result).toMatchObject({ replayed: true, passes: 3, verified: null });
    expect(result.verification).toMatchObject({ status: 'incomplete', complete: false, passOutputsEqual: null, mismatchedRanges: [] });
    expect(result.notes.join(' ')).toMatch(/verification hash failed .*skipped/);
  });

  it('a window that failed proves nothing: status incomplete', async () => {
    // Copies of a full window of 3 passes: capture (#0), the restore before pass 2 (#1) and its retry (#2), then the restore back.
    setup.runtime.injectFault({ operation: 'copy', after: 1, count: 2 });
    const result = await dispatchScatter({});
    expect(result.failure).toMatchObject({ phase: 'restore', pass: 2 });
    expect(result.verified).toBeNull();
    expect(result.verification.status).toBe('incomplete');
  });
});
