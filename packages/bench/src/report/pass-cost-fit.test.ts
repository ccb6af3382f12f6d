import { describe, expect, it } from 'vitest';
import type { DispatchSample } from './dispatch-sample.js';
import { fitPassCosts } from './pass-cost-fit.js';

function samples(wallMs: readonly number[]): DispatchSample[] {
  const bytes = { deviceToDevice: 0, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0 };
  return wallMs.map((ms, index) => ({ index, wallMs: ms, quiesceMs: 0, lockWaitMs: 0, captureMs: 0, passMs: [], restoreMs: [], verifyMs: 0, bytes, stagingBytes: {}, replayed: true, tier: null }));
}

const row = (variant: string, passes: number, wallMs: readonly number[], sweep = 'passes') => ({
  variant, sweep, passes, footprintBytes: 2 ** 26, dispatches: wallMs.length, writeFraction: 0.01, streams: 1, samples: samples(wallMs),
});

describe('fitPassCosts', () => {
  it('splits a dispatch into fixed and per-pass cost, leaving the cold first dispatch out', () => {
    const noise = [0.02, -0.02, 0.01, -0.01];
    const rows = [2, 3, 5, 8].map((passes, index) => row('dirty-pages', passes, [100, 3 + 0.5 * passes + noise[index]!, 3 + 0.5 * passes - noise[index]!]));
    const [fit] = fitPassCosts(rows);
    expect(fit).toMatchObject({ key: 'dirty-pages/64MiB/d3/w0.01/s1', variant: 'dirty-pages', passes: [2, 3, 5, 8], points: 8 });
    expect(fit!.fixedMs).toBeCloseTo(3, 1);
    expect(fit!.perPassMs).toBeCloseTo(0.5, 2);
    expect(fit!.perPassStandardErrorMs!).toBeGreaterThan(0);
    expect(fit!.perPassStandardErrorMs!).toBeLessThan(0.01);
    expect(fit!.rSquared).toBeGreaterThan(0.99);
  });

  it('fits each configuration apart and skips side sweeps and single pass counts', () => {
    const rows = [
      row('full/pinned', 2, [9, 4, 4]),
      row('full/pinned', 5, [9, 7, 7]),
      row('write-set', 5, [1, 2, 2]),
      row('reference', 5, [1, 2, 2], 'streams'),
      row('reference', 2, [1, 2, 2], 'streams'),
    ];
    const fits = fitPassCosts(rows);
    expect(fits.map((fit) => fit.variant)).toEqual(['full/pinned']);
    expect(fits[0]!.perPassMs).toBeCloseTo(1);
    expect(fits[0]!.fixedMs).toBeCloseTo(2);
  });
});
