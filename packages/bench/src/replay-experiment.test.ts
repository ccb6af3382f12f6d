import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { fullStrategy } from '@kreplay/snapshot';
import { runReplayExperiment } from './replay-experiment.js';
import type { ReplayExperimentOptions } from './replay-experiment.js';
import { restoreNothingStrategy } from '@kreplay/snapshot/test';

const base: ReplayExperimentOptions = { strategy: 'full', tier: 'device', footprintBytes: 1 << 20, writeFraction: 0.25, dispatches: 3, passes: 3, verify: 'full' };

describe('runReplayExperiment: what it says was verified (host driver)', () => {
  it('verified true when every dispatch verified', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await runReplayExperiment(runtime, base);
    expect(result).toMatchObject({ verified: true, replayedDispatches: 3, declinedByReason: {} });
    expect(result.verification).toEqual({ verified: 3, mismatch: 0, incomplete: 0, 'not-run': 0 });
  });

  it('nothing verified when every dispatch was declined: null, with the declines counted by reason', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await runReplayExperiment(runtime, { ...base, tier: 'host-pinned', hostBytesLimit: 4 });
    expect(result).toMatchObject({ verified: null, replayedDispatches: 0, declinedByReason: { 'snapshot-declined': 3 } });
    expect(result.verification).toEqual({ verified: 0, mismatch: 0, incomplete: 0, 'not-run': 3 });
  });

  it('nothing verified with one pass, or with verification off: null', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    expect((await runReplayExperiment(runtime, { ...base, passes: 1 })).verified).toBeNull();
    expect((await runReplayExperiment(runtime, { ...base, verify: 'off' })).verified).toBeNull();
  });

  it('verified false when a replayed dispatch failed verification (a strategy of your own that restores nothing)', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const strategy = restoreNothingStrategy(fullStrategy({ tier: 'device' }));
    const result = await runReplayExperiment(runtime, { ...base, strategy, verify: 'restore' });
    strategy.dispose?.();
    expect(result).toMatchObject({ verified: false, strategy: 'full-restoring-nothing', replayedDispatches: 3 });
    expect(result.verification.mismatch).toBe(3);
  });

  it('a verification that could not be completed (a hash failing) is counted apart from a mismatch: null', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    runtime.injectFault({ operation: 'hash', count: 1_000_000 });
    const result = await runReplayExperiment(runtime, base);
    runtime.clearFaults();
    expect(result.verified).toBeNull();
    expect(result.verification).toEqual({ verified: 0, mismatch: 0, incomplete: 3, 'not-run': 0 });
  });
});

describe('runReplayExperiment with range (host driver)', () => {
  it('replays ranges of consecutive dispatches, listing each range and each dispatch', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const seen: number[] = [];
    const result = await runReplayExperiment(runtime, { ...base, dispatches: 5, range: 2, onDispatch: (index) => seen.push(index) });
    expect(result).toMatchObject({ range: 2, verified: true, replayedDispatches: 5 });
    expect(result.ranges.map((range) => [range.firstDispatch, range.dispatches.length, range.passes, range.replayed])).toEqual([
      [0, 2, 3, true],
      [2, 2, 3, true],
      [4, 1, 3, true],
    ]);
    for (const range of result.ranges) {
      expect(range.bytesCopied).toBeGreaterThan(0);
      expect(range.timings.passMs).toHaveLength(3);
      for (const dispatch of range.dispatches) {
        expect(dispatch.kernelName).toBe('scatterWrite');
        expect(dispatch.collected).toHaveLength(3);
      }
    }
    expect(result.bytesCopied).toBe(result.ranges.reduce((sum, range) => sum + range.bytesCopied, 0));
    expect(seen).toEqual([1, 3, 4]);
    expect(JSON.parse(JSON.stringify(result)).ranges).toHaveLength(3);
  });

  it('without range, lists no ranges; a range that is not a whole number >= 1 is refused', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    expect(await runReplayExperiment(runtime, base)).toMatchObject({ range: null, ranges: [] });
    await expect(runReplayExperiment(runtime, { ...base, range: 0 })).rejects.toThrow(/range must be a whole number >= 1/);
  });
});
