import fc from 'fast-check';
import { ArgumentError } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { jsonSchemaProblem } from '../report/json-schema-check.js';
import { syntheticRooflineProfile } from '../test-support/example-profiles.js';
import { compareProfiles, relativeChange } from './compare-profiles.js';
import { formatProfileComparison } from './format-profile-comparison.js';
import { profileComparisonJsonSchema } from './profile-comparison-json-schema.js';
import type { ProfileDocument } from './profile-document.js';

const duration = 'gpu__time_duration.sum';
const compute = 'sm__throughput.avg.pct_of_peak_sustained_elapsed';

/** The profile with `metric` of the launches of `kernel` multiplied by `factor`. */
function scaled(profile: ProfileDocument, kernel: string, metric: string, factor: number): ProfileDocument {
  return {
    ...profile,
    dispatches: profile.dispatches.map((row) => (row.kernel === kernel && row.metrics ? { ...row, metrics: { ...row.metrics, [metric]: row.metrics[metric]! * factor } } : row)),
  };
}

describe('compareProfiles', () => {
  const base = syntheticRooflineProfile();

  it('gives per kernel and metric the means over the matched launches and their change; nothing moved in a profile against itself', () => {
    const comparison = compareProfiles(base, base);
    expect(comparison.schema).toBe('urn:kreplay:schema:profile-comparison:1');
    expect(comparison.launchesMatched).toBe(7);
    expect(comparison.moved).toEqual([]);
    expect(new Set(comparison.deltas.map((delta) => delta.kernel))).toEqual(new Set(['sgemm_128x128_nn', 'dgemm_64x64_tn', 'vectorized_elementwise_add', 'copy_kernel']));
    // Kernels by the first profile's total duration, metrics in its order.
    expect(comparison.deltas[0]).toMatchObject({ kernel: 'sgemm_128x128_nn', launches: 1, metric: duration, unit: 'nanosecond', a: 851_200, b: 851_200, change: 0, threshold: 0.1, moved: false });
    expect(comparison.deltas.find((delta) => delta.kernel === 'vectorized_elementwise_add')!.launches).toBe(3);
    expect(jsonSchemaProblem(profileComparisonJsonSchema, JSON.parse(JSON.stringify(comparison)))).toBeNull();
  });

  it('flags a metric that moved beyond the threshold for every metric, up or down', () => {
    const slower = compareProfiles(base, scaled(base, 'copy_kernel', duration, 1.2), { thresholds: { all: 0.05, byMetric: {} } });
    expect(slower.moved.map((delta) => [delta.kernel, delta.metric, Number(delta.change!.toFixed(3))])).toEqual([['copy_kernel', duration, 0.2]]);
    const faster = compareProfiles(base, scaled(base, 'copy_kernel', duration, 0.8), { thresholds: { all: 0.05, byMetric: {} } });
    expect(faster.moved.map((delta) => Number(delta.change!.toFixed(3)))).toEqual([-0.2]);
    expect(compareProfiles(base, scaled(base, 'copy_kernel', duration, 1.04), { thresholds: { all: 0.05, byMetric: {} } }).moved).toEqual([]);
  });

  it('applies a metric\'s own threshold over the one for every metric; with only per-metric thresholds, gates those metrics alone', () => {
    const head = scaled(scaled(base, 'sgemm_128x128_nn', duration, 1.04), 'sgemm_128x128_nn', compute, 0.5);
    const both = compareProfiles(base, head, { thresholds: { all: 0.6, byMetric: { [duration]: 0.03 } } });
    expect(both.moved.map((delta) => delta.metric)).toEqual([duration]);
    const only = compareProfiles(base, head, { thresholds: { all: null, byMetric: { [duration]: 0.03 } } });
    expect(only.moved.map((delta) => delta.metric)).toEqual([duration]);
    expect(only.deltas.find((delta) => delta.metric === compute && delta.kernel === 'sgemm_128x128_nn')).toMatchObject({ threshold: null, moved: false, change: -0.5 });
    expect(formatProfileComparison(only)).toMatch(/threshold gpu__time_duration\.sum 3% \(other metrics not gated\)/);
  });

  it('counts a change from zero as beyond any threshold it is gated by', () => {
    const fadd = 'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed';
    expect(base.dispatches.filter((row) => row.kernel === 'copy_kernel').map((row) => row.metrics![fadd])).toEqual([0, 0]);
    const withWork = { ...base, dispatches: base.dispatches.map((row) => (row.kernel === 'copy_kernel' ? { ...row, metrics: { ...row.metrics, [fadd]: 5 } } : row)) };
    const comparison = compareProfiles(base, withWork, { thresholds: { all: 10, byMetric: {} } });
    expect(comparison.moved.map((delta) => [delta.kernel, delta.change])).toEqual([['copy_kernel', null]]);
    expect(formatProfileComparison(comparison)).toContain('from 0');
  });

  it('lists launches and metrics found in one profile only, and compares the rest', () => {
    const extra = { ...base, dispatches: [...base.dispatches, { ...base.dispatches[0]!, dispatch: 7 }], metrics: [...base.metrics, 'lts__t_bytes.sum'] };
    const comparison = compareProfiles(base, extra, { sources: ['base.json', 'head.json'] });
    expect(comparison.onlyInB).toEqual([{ kernel: 'sgemm_128x128_nn', dispatch: 7, occurrence: 1 }]);
    expect(comparison.onlyInA).toEqual([]);
    expect(comparison.metricsOnlyInB).toEqual(['lts__t_bytes.sum']);
    const text = formatProfileComparison(comparison);
    expect(text).toMatch(/^a: base\.json: NVIDIA H100 80GB HBM3 \(GH100\), capture:step \(7 launches\), 7 launches$/m);
    expect(text).toContain('launches only in b (not compared):\n  sgemm_128x128_nn: launch 2 of its kernel, dispatch 7');
    expect(text).toContain('metrics only in b (not compared): lts__t_bytes.sum');
    expect(text).toMatch(/^kernel\s+metric\s+launches\s+a\s+b\s+delta\s+gate$/m);
    expect(text).toMatch(/^sgemm_128x128_nn\s+gpu__time_duration\.sum\s+1\s+851\.20 us\s+851\.20 us\s+0\.0%$/m);
  });

  it('with grid, compares per kernel and launch shape, and refuses profiles without shapes', () => {
    const comparison = compareProfiles(base, base, { match: 'grid' });
    expect(comparison.deltas[0]).toMatchObject({ kernel: 'sgemm_128x128_nn', grid: [132, 4, 1], block: [256, 1, 1] });
    expect(formatProfileComparison(comparison)).toContain('sgemm_128x128_nn [132x4x1/256x1x1]');
    const shapeless = { ...base, dispatches: base.dispatches.map(({ grid: _grid, block: _block, ...row }) => row) };
    const refusal = () => compareProfiles(base, shapeless, { match: 'grid', sources: ['a.json', 'b.json'] });
    expect(refusal).toThrow(ArgumentError);
    expect(refusal).toThrow('[bench] [compare] b.json: 7 of 7 launches have no launch shape (grid, block) to match by grid. Match by name, or profile a capture with this kreplay (its rows carry the shapes).');
  });

  it('refuses a negative threshold and one for a metric neither profile measured', () => {
    expect(() => compareProfiles(base, base, { thresholds: { all: -0.1, byMetric: {} } })).toThrow(/threshold for every metric must be a non-negative fraction, got -0\.1/);
    expect(() => compareProfiles(base, base, { thresholds: { all: null, byMetric: { 'gpu__time_duraton.sum': 0.03 } } })).toThrow(/a threshold names gpu__time_duraton\.sum, which neither profile measured \(they measured gpu__time_duration\.sum, /);
  });

  it('moves exactly the metrics whose change is beyond their threshold', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: 0, max: 2, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (before, factor, threshold) => {
        const head = scaled(base, 'dgemm_64x64_tn', duration, factor);
        const delta = compareProfiles(scaled(base, 'dgemm_64x64_tn', duration, before / 402_900), scaled(head, 'dgemm_64x64_tn', duration, before / 402_900), { thresholds: { all: threshold, byMetric: {} } }).deltas.find((each) => each.kernel === 'dgemm_64x64_tn' && each.metric === duration)!;
        expect(delta.change).toBeCloseTo(relativeChange(delta.a, delta.b)!, 9);
        expect(delta.moved).toBe(Math.abs((delta.b - delta.a) / delta.a) > threshold);
      }),
    );
  });
});
