import { describe, expect, it } from 'vitest';
import type { DispatchSample } from './dispatch-sample.js';
import { fitPassCosts, meaningfulFitRSquared, passCostFitCaveat } from './pass-cost-fit.js';

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

describe('pass-cost fits that are not meaningful', () => {
  it('flags a negative per-pass cost, naming it', () => {
    const rows = [2, 5].map((passes) => row('write-set', passes, [9, 10 - passes, 10 - passes]));
    const [fit] = fitPassCosts(rows);
    expect(fit!.perPassMs).toBeLessThan(0);
    expect(fit!.meaningful).toBe(false);
    expect(fit!.caveat).toMatch(/per-pass cost is negative/);
  });

  it('flags a fit with an R² below the threshold, and keeps a good one', () => {
    const noisy = [2, 3, 5, 8].map((passes, index) => row('full/pinned', passes, [50, ...[[9, 1], [1, 9], [9, 1], [1, 9.5]][index]!]));
    const [fit] = fitPassCosts(noisy);
    expect(fit!.perPassMs).toBeGreaterThan(0);
    expect(fit!.rSquared).toBeLessThan(meaningfulFitRSquared);
    expect(fit!).toMatchObject({ meaningful: false });
    expect(fit!.caveat).toMatch(/R² 0\.\d+ below 0\.5/);
    const good = fitPassCosts([2, 5].map((passes) => row('dirty-pages', passes, [9, 1 + passes, 1 + passes])));
    expect(good[0]).toMatchObject({ meaningful: true, caveat: null });
  });

  it('judges a fit read from an older report without the fields from its numbers', () => {
    expect(passCostFitCaveat({ fixedMs: 1, perPassMs: -0.1, rSquared: 0.9 })).toMatch(/negative/);
    expect(passCostFitCaveat({ fixedMs: -1, perPassMs: 0.1, rSquared: 0.9 })).toMatch(/fixed cost is negative/);
    expect(passCostFitCaveat({ fixedMs: 1, perPassMs: 0.1, rSquared: 0.9 })).toBeNull();
    expect(passCostFitCaveat({ fixedMs: null, perPassMs: null, rSquared: null })).toMatch(/not finite/);
  });
});
