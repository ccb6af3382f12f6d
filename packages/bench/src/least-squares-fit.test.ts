import { describe, expect, it } from 'vitest';
import { ArgumentError } from '@kreplay/native';
import { fitLine } from './least-squares-fit.js';

/** A seeded normal generator (Box-Muller over a 32-bit LCG), so the test is reproducible. */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) + 1) / 4294967297;
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

describe('fitLine', () => {
  it('recovers exact coefficients with zero error and R² = 1', () => {
    const x = [2, 3, 5, 8];
    const fit = fitLine(x, x.map((passes) => 4 + 1.25 * passes));
    expect(fit.intercept).toBeCloseTo(4, 12);
    expect(fit.slope).toBeCloseTo(1.25, 12);
    expect(fit.interceptStandardError).toBeCloseTo(0, 12);
    expect(fit.slopeStandardError).toBeCloseTo(0, 12);
    expect(fit.rSquared).toBe(1);
    expect(fit.points).toBe(4);
  });

  it('matches the normal-equation solution and its standard errors on noisy data', () => {
    // y = 1.5 + 0.75 x + a fixed noise; expected values from (X'X)^-1 X'y and s^2 (X'X)^-1.
    const x = [2, 3, 5, 8, 2, 3, 5, 8];
    const y = [3.1, 3.55, 5.3, 7.6, 2.9, 3.9, 5.2, 7.45];
    const fit = fitLine(x, y);
    expect(fit.intercept).toBeCloseTo(1.4732142857142847, 10);
    expect(fit.slope).toBeCloseTo(0.7559523809523805, 10);
    expect(fit.interceptStandardError).toBeCloseTo(0.09984220827529797, 10);
    expect(fit.slopeStandardError).toBeCloseTo(0.01977170344183033, 10);
    expect(fit.rSquared).toBeCloseTo(0.9959123690970164, 10);
  });

  it('reports standard errors that match the spread of repeated fits', () => {
    const noise = normals(42);
    const x = [2, 3, 5, 8].flatMap((passes) => Array.from({ length: 10 }, () => passes));
    const slopes: number[] = [];
    const intercepts: number[] = [];
    const reported: number[] = [];
    for (let trial = 0; trial < 400; trial += 1) {
      const fit = fitLine(x, x.map((passes) => 3 + 0.5 * passes + 0.2 * noise()));
      slopes.push(fit.slope);
      intercepts.push(fit.intercept);
      reported.push(fit.slopeStandardError!);
    }
    const spread = (values: number[]) => {
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
    };
    const meanReported = reported.reduce((sum, value) => sum + value, 0) / reported.length;
    expect(spread(slopes) / meanReported).toBeGreaterThan(0.85);
    expect(spread(slopes) / meanReported).toBeLessThan(1.15);
    expect(intercepts.reduce((sum, value) => sum + value, 0) / intercepts.length).toBeCloseTo(3, 1);
  });

  it('gives no standard errors for two points, and refuses what cannot be fitted', () => {
    const two = fitLine([2, 8], [1, 4]);
    expect(two.slope).toBeCloseTo(0.5);
    expect(two.slopeStandardError).toBeNull();
    expect(two.interceptStandardError).toBeNull();
    expect(() => fitLine([5, 5, 5], [1, 2, 3])).toThrow(/two distinct/);
    expect(() => fitLine([1, 2], [1])).toThrow(ArgumentError);
    expect(() => fitLine([1, 2], [1, Number.NaN])).toThrow(/\[bench\] \[fit\]/);
  });
});
