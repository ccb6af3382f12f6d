import { describe, expect, it } from 'vitest';
import type { CaptureLaunch } from '@kreplay/native';
import type { RangeResult } from '@kreplay/replay';
import { emptyByteAccount } from '@kreplay/snapshot';
import { assembleCaptureRange } from './profile-capture-range.js';

const launches = [7, 8, 10].map((sequence) => ({ sequence, function: `k${sequence}` })) as unknown as CaptureLaunch[];

/** A range's result: each launch's metric `value` is `base + index`. */
function result(base: number, wallMs: number, extra: Partial<RangeResult> = {}): RangeResult {
  return {
    replayed: true,
    strategy: 'dirty-pages',
    tier: 'device',
    passesRequested: 11,
    passes: 11,
    bytes: { ...emptyByteAccount(), deviceToDevice: 300 },
    bytesCopied: 300,
    timings: { quiesceMs: 0, lockWaitMs: 0, captureMs: 0, passMs: [], restoreMs: [], verifyMs: 0, wallMs, hostBeforeEnqueueMs: null, hostAfterWaitMs: null },
    verification: { status: 'not-run' } as RangeResult['verification'],
    verified: null,
    notes: [],
    dispatches: launches.map((launch, index) => ({ kernelName: launch.function, collected: { metrics: { value: base + index } } })),
    ...extra,
  };
}

describe('assembleCaptureRange', () => {
  it('per launch the median of its samples, named by sequence, kernel and range; the range with its passes, bytes and wall time per launch', () => {
    const samples = [1, 5, 3].map((base) => ({ result: result(base, 30), bytesPrepared: 1000, bytesBefore: 64 }));
    const { rows, range } = assembleCaptureRange(launches, 2, samples);
    expect(rows.map((row) => [row.dispatch, row.kernel, row.range, row.metrics, row.passes])).toEqual([
      [7, 'k7', 2, { value: 3 }, 11],
      [8, 'k8', 2, { value: 4 }, 11],
      [10, 'k10', 2, { value: 5 }, 11],
    ]);
    // Each sample's share of the range: 30 ms and 300 bytes over 3 launches, summed over 3 samples.
    expect(rows[0]).toMatchObject({ wallMs: 30, bytesCopied: 300, sampleMetrics: [{ value: 1 }, { value: 5 }, { value: 3 }] });
    expect(range).toEqual({
      first: 7,
      dispatches: 3,
      launches: [7, 8, 10],
      replayed: true,
      passes: 11,
      wallMs: 90,
      wallMsPerDispatch: 30,
      bytesCopied: 900,
      bytesBefore: 64,
      bytesPrepared: 3000,
      tier: 'device',
      bytes: { ...emptyByteAccount(), deviceToDevice: 900 },
    });
  });

  it('a sample that failed or was declined: every launch carries it, and the range names it', () => {
    const failure = { phase: 'pass', pass: 2, attempts: 1, error: { name: 'DriverError', message: 'launch failed' }, memory: 'pre-dispatch', rangesNotRestored: [] } as unknown as RangeResult['failure'];
    const samples = [
      { result: result(1, 10), bytesPrepared: 0, bytesBefore: 0 },
      { result: result(1, 10, { failure, replayed: true, dispatches: launches.map((launch) => ({ kernelName: launch.function, collected: { metrics: null } })) }), bytesPrepared: 0, bytesBefore: 0 },
    ];
    const { rows, range } = assembleCaptureRange(launches, 0, samples);
    expect(rows.map((row) => [row.metrics, row.error])).toEqual(launches.map(() => [null, 'sample 2 of 2: pass: launch failed']));
    expect(range.error).toBe('pass: launch failed');
    const declined = assembleCaptureRange(launches, 0, [{ result: result(1, 10, { replayed: false, declineReason: 'strategy declined', passes: 1 }), bytesPrepared: 0, bytesBefore: 0 }]);
    expect(declined.range).toMatchObject({ replayed: false, declineReason: 'strategy declined' });
    expect(declined.rows[0]!.error).toBe('sample 1 of 1: declined: strategy declined');
  });
});
