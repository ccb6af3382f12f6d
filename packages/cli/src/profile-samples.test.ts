import { describe, expect, it } from 'vitest';
import type { ProfileRow } from './profile-dispatches.js';
import { medianOfSamples, profileSamples } from './profile-samples.js';

function sample(metrics: Record<string, number> | null, extra: Partial<ProfileRow> = {}): ProfileRow {
  return { dispatch: 4, kernel: 'k', range: null, replayed: true, passes: 9, wallMs: 10, bytesCopied: 100, metrics, ...extra };
}

describe('medianOfSamples', () => {
  it("reports each metric's median over the samples, and their wall time and bytes summed", () => {
    const row = medianOfSamples([sample({ duration: 3000, lts: 40 }), sample({ duration: 2900, lts: 44 }), sample({ duration: 3500, lts: 41 })]);
    expect(row).toEqual({
      dispatch: 4,
      kernel: 'k',
      range: null,
      replayed: true,
      passes: 9,
      wallMs: 30,
      bytesCopied: 300,
      metrics: { duration: 3000, lts: 41 },
      sampleMetrics: [
        { duration: 3000, lts: 40 },
        { duration: 2900, lts: 44 },
        { duration: 3500, lts: 41 },
      ],
    });
  });

  it('takes the mean of the middle two of an even number of samples', () => {
    expect(medianOfSamples([sample({ duration: 10 }), sample({ duration: 40 }), sample({ duration: 20 }), sample({ duration: 30 })]).metrics).toEqual({ duration: 25 });
  });

  it('is the one sample when there is one', () => {
    expect(medianOfSamples([sample({ duration: 7 })])).toEqual(sample({ duration: 7 }));
  });

  it('carries the first failed sample instead of a median of fewer samples', () => {
    const failed = medianOfSamples([sample({ duration: 1 }), sample(null, { error: 'incomplete: passes 3 of 9 did not complete' }), sample({ duration: 2 })]);
    expect(failed.metrics).toBeNull();
    expect(failed.error).toBe('sample 2 of 3: incomplete: passes 3 of 9 did not complete');
    expect(failed.sampleMetrics).toEqual([{ duration: 1 }, null, { duration: 2 }]);
    const declined = medianOfSamples([sample(null, { replayed: false, declineReason: 'the footprint does not fit' }), sample({ duration: 2 })]);
    expect(declined).toMatchObject({ replayed: false, metrics: null, declineReason: 'the footprint does not fit', error: 'sample 1 of 2: declined: the footprint does not fit' });
    expect(medianOfSamples([sample({ duration: 1 }), sample(null)]).error).toBe('sample 2 of 2: no values');
  });

  it('refuses no samples, or samples of different dispatches', () => {
    expect(() => medianOfSamples([])).toThrow(/at least one sample/);
    expect(() => medianOfSamples([sample({ duration: 1 }), sample({ duration: 1 }, { dispatch: 5 })])).toThrow(/samples of dispatches 4, 5 cannot be combined/);
  });

  it('profileSamples profiles one sample after another, as many as asked, and combines them', async () => {
    const started: number[] = [];
    let running = 0;
    const row = await profileSamples(3, async (index) => {
      running += 1;
      expect(running).toBe(1);
      started.push(index);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
      return sample({ duration: [30, 10, 20][index]! });
    });
    expect(started).toEqual([0, 1, 2]);
    expect(row.metrics).toEqual({ duration: 20 });
    await expect(profileSamples(0, async () => sample({ duration: 1 }))).rejects.toThrow(/samples is 0, not a whole number >= 1/);
  });
});
