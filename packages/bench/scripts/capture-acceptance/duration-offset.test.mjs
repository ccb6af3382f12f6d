// durationOffset on made-up ncu runs and kreplay rows: a fixed cost and a share are told apart.
import { describe, expect, it } from 'vitest';
import { durationOffset } from './duration-offset.mjs';

const durations = [2000, 5000, 10000, 40000];
/** One ncu run of kernels k0..k3 with the given durations. */
const run = (values) => values.map((duration, index) => ({ id: index, name: `k${index}`, metrics: { 'gpu__time_duration.sum': duration } }));
const ncuRuns = [run(durations.map((duration) => duration - 20)), run(durations.map((duration) => duration + 20))];
const rows = (values) => values.map((duration, index) => ({ kernel: `_Z2k${index}v`, metrics: { 'gpu__time_duration.sum': duration } }));

describe('durationOffset', () => {
  it('reads a fixed cost per launch as fixed, with no share', () => {
    const fit = durationOffset(ncuRuns, rows(durations.map((duration) => duration + 150)));
    expect(fit.launches).toBe(4);
    expect([fit.shortest, fit.longest]).toEqual([2000, 40000]);
    expect(fit.fixed).toBeCloseTo(150, 6);
    expect(fit.share).toBeCloseTo(0, 9);
  });

  it('reads a difference that grows with the duration as a share', () => {
    const fit = durationOffset(ncuRuns, rows(durations.map((duration) => duration * 1.03 + 40)));
    expect(fit.fixed).toBeCloseTo(40, 6);
    expect(fit.share).toBeCloseTo(0.03, 9);
  });

  it('leaves out launches of another kernel or without a value, and gives no fit from one duration', () => {
    const mixed = rows(durations.map((duration) => duration + 100));
    mixed[1] = { kernel: '_Z5otherv', metrics: { 'gpu__time_duration.sum': 1 } };
    mixed[3] = { kernel: '_Z2k3v', metrics: {} };
    expect(durationOffset(ncuRuns, mixed).launches).toBe(2);
    expect(durationOffset([run([5000, 5000])], rows([5100, 5100]))).toBeNull();
  });
});
