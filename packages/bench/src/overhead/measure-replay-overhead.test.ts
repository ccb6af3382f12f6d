import { describe, expect, it } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { measureReplayOverhead } from './measure-replay-overhead.js';

describe('measureReplayOverhead', () => {
  it('reports every variant on a shape, verified, with the dirty-pages floor and checkpoint unavailable on host', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await measureReplayOverhead(runtime, { shape: 'B', footprintBytes: 4 * 2 ** 20, dispatches: 4, warmupDispatches: 1, passes: 3 });
    expect(result).toMatchObject({ driver: 'host', shape: 'B', passes: 3, dispatches: 4, phaseTimings: false });
    expect(result.candidateBytes).toBeGreaterThanOrEqual(0.75 * 4 * 2 ** 20);
    expect(result.rows.map((row) => row.variant)).toEqual(['full/pageable', 'full/pinned', 'full/device', 'write-set', 'dirty-pages', 'cupti-checkpoint']);
    expect(result.warmup).toEqual({ dispatches: 1, maxSeconds: 2 });
    for (const row of result.rows.slice(0, 5)) {
      expect(row).toMatchObject({ available: true, verified: true, declined: 0, dispatchesTimed: 4, warmupDispatches: 1 });
      expect(row.warmupMs).toBeGreaterThan(0);
      expect(row.replayMs).toBeGreaterThan(0);
      // Each row's own baseline, timed in turns with it, is what its overhead is measured against.
      expect(row.passesWithoutReplayMs).toBeGreaterThan(0);
      expect(row.overheadMs).toBeCloseTo(row.replayMs! - row.passesWithoutReplayMs!, 9);
      // The host's share: before the first phase and after the wait, both within the dispatch.
      expect(row.hostBeforeEnqueueMs).toBeGreaterThan(0);
      expect(row.hostAfterWaitMs).toBeGreaterThan(0);
      expect(row.hostBeforeEnqueueMs! + row.hostAfterWaitMs!).toBeLessThan(row.replayMs!);
    }
    const full = result.rows[0]!;
    expect(full.bytesCopiedPerDispatch).toBe(3 * 4 * 2 ** 20);
    const dirty = result.rows[4]!;
    expect(dirty.bytesCopiedPerDispatch!).toBeLessThan(full.bytesCopiedPerDispatch! / 4);
    expect(dirty.floorRatio).not.toBeNull();
    // Back to back, each capture reads only the pages the dispatch before it wrote: about one read of the candidates per dispatch.
    expect(dirty.bytesHashedPerDispatch!).toBeLessThan(1.5 * result.candidateBytes);
    expect(result.rows[5]).toMatchObject({ available: false, replayMs: null, passesWithoutReplayMs: null, hostBeforeEnqueueMs: null, hostAfterWaitMs: null });
    expect(result.rows[5]!.note).toMatch(/not available on the host driver/);
  });

  it('stops a warm-up at its time cap, and refuses a warm-up that cannot run', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const base = { shape: 'B', footprintBytes: 4 * 2 ** 20, dispatches: 2, passes: 2, verifyDispatches: 0, variants: ['dirty-pages'] } as const;
    // Far more warm-up dispatches than 50 ms allows: the cap ends it, and the row says how many ran.
    const capped = await measureReplayOverhead(runtime, { ...base, warmupDispatches: 1_000_000, maxWarmupSeconds: 0.05 });
    const [row] = capped.rows;
    expect(row!.warmupDispatches).toBeGreaterThan(0);
    expect(row!.warmupDispatches).toBeLessThan(1_000_000);
    await expect(measureReplayOverhead(runtime, { ...base, warmupDispatches: -1 })).rejects.toThrow(/warmupDispatches must be a whole number >= 0, got -1/);
    await expect(measureReplayOverhead(runtime, { ...base, maxWarmupSeconds: 0 })).rejects.toThrow(/maxWarmupSeconds must be a number of seconds > 0/);
  });

  it('shape A puts the writes in a quarter of the footprint, so write-set copies about a quarter of full', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await measureReplayOverhead(runtime, { shape: 'A', footprintBytes: 4 * 2 ** 20, dispatches: 2, warmupDispatches: 1, passes: 2, verifyDispatches: 0, variants: ['full/device', 'write-set'] });
    const [full, writeSet] = result.rows;
    expect(writeSet!.bytesCopiedPerDispatch! / full!.bytesCopiedPerDispatch!).toBeCloseTo(0.25, 1);
    expect(writeSet!.verified).toBeNull();
  });

  it('one pass verifies nothing: verified null, not false', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const result = await measureReplayOverhead(runtime, { shape: 'B', footprintBytes: 4 * 2 ** 20, dispatches: 2, warmupDispatches: 1, passes: 1, variants: ['full/device'] });
    expect(result.rows[0]).toMatchObject({ variant: 'full/device', available: true, verified: null });
  });

  it('stops before the next variant once its signal is aborted, keeping the rows measured', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const controller = new AbortController();
    const started: string[] = [];
    const onVariant = (name: string) => {
      started.push(name);
      controller.abort();
    };
    const result = await measureReplayOverhead(runtime, { shape: 'B', footprintBytes: 4 * 2 ** 20, dispatches: 2, warmupDispatches: 1, passes: 2, variants: ['full/device', 'write-set'], signal: controller.signal, onVariant });
    expect(started).toEqual(['full/device']);
    expect(result.rows.map((row) => row.variant)).toEqual(['full/device']);
  });

  it('at 0.7x of the device memory reports the first dispatch apart, and dirty-pages staging across the device and pinned host tiers', async () => {
    await using runtime = await openRuntime({ driver: 'host', host: { agents: 1, deviceMemoryBytes: 16 * 2 ** 20 } });
    const result = await measureReplayOverhead(runtime, { shape: 'B', footprintOfDevice: 0.7, dispatches: 3, warmupDispatches: 1, passes: 3, variants: ['full/pinned', 'dirty-pages'] });
    expect(result.footprintBytes).toBe(Math.floor((0.7 * 16 * 2 ** 20) / 65536) * 65536);
    expect(result.footprintOfDevice).toBeCloseTo(0.7, 2);
    const [pinned, dirty] = result.rows;
    for (const row of [pinned!, dirty!]) {
      expect(row).toMatchObject({ available: true, verified: true, declined: 0 });
      expect(row.firstDispatchMs).toBeGreaterThan(0);
      expect(row.hostStagingHighWaterBytes).toBeGreaterThan(0);
      const tiers = row.stagingBytesByTier!;
      expect(row.hostHighWaterRatio).toBeCloseTo(row.hostStagingHighWaterBytes! / (tiers['host-pinned'] + tiers['host-pageable']), 9);
      expect(row.hostHighWaterRatio).toBeGreaterThanOrEqual(1);
    }
    expect(pinned!.stagingBytesByTier).toMatchObject({ device: 0, 'host-pageable': 0 });
    // Shape B's candidates are 80% of the footprint, 0.56x of the device: more than the 0.3x left free.
    expect(dirty!.stagingBytesByTier!.device).toBeGreaterThan(0);
    expect(dirty!.stagingBytesByTier!['host-pinned']).toBeGreaterThan(0);
  });

  it('refuses a footprint fraction outside (0, 1), or given with a footprint in bytes', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const base = { shape: 'B', dispatches: 1, passes: 2, verifyDispatches: 0, variants: ['dirty-pages'] } as const;
    await expect(measureReplayOverhead(runtime, { ...base, footprintOfDevice: 1.5 })).rejects.toThrow(/footprintOfDevice must be a fraction of the device memory in \(0, 1\), got 1.5/);
    await expect(measureReplayOverhead(runtime, { ...base, footprintOfDevice: 0.5, footprintBytes: 2 ** 20 })).rejects.toThrow(/both given/);
  });
});
