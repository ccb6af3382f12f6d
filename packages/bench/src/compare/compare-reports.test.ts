import { describe, expect, it } from 'vitest';
import { ArgumentError } from '@kreplay/native';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { compareReports } from './compare-reports.js';
import { formatComparison } from './format-comparison.js';

describe('compareReports', () => {
  it('finds no regression when a report is compared with itself', () => {
    const report = syntheticReport();
    const comparison = compareReports(report, report);
    expect(comparison.changes.length).toBeGreaterThan(10);
    expect(comparison.regressions).toEqual([]);
    expect(comparison.onlyInBase).toEqual([]);
    expect(formatComparison(comparison)).toContain('0 regressed');
  });

  it('flags a planted 2x slowdown of the per-pass cost, and names it', () => {
    const base = syntheticReport({ perPassMs: 2 });
    const head = syntheticReport({ perPassMs: 4 });
    const comparison = compareReports(base, head, { threshold: 0.1 });
    const perPass = comparison.regressions.filter((change) => change.metric === 'per-pass cost (ms)');
    expect(perPass.map((change) => change.key).sort()).toEqual(['dirty-pages/64MiB/d4/w0.01/s1', 'reference/64MiB/d4/w0.01/s1']);
    expect(perPass[0]!.worsening).toBeCloseTo(1);
    expect(comparison.regressions.some((change) => change.metric === 'fixed cost (ms)')).toBe(false);
    expect(formatComparison(comparison)).toMatch(/per-pass cost \(ms\).*100\.0% worse/);
  });

  it('is direction-aware: a bandwidth that falls regresses, one that rises does not', () => {
    const fast = syntheticReport({ ceilingBytesPerSecond: 50e9 });
    const slow = syntheticReport({ ceilingBytesPerSecond: 25e9 });
    const bandwidth = (change: { metric: string }) => change.metric.includes('bandwidth');
    expect(compareReports(fast, slow).regressions.filter(bandwidth)).toHaveLength(1);
    expect(compareReports(slow, fast).regressions.filter(bandwidth)).toHaveLength(0);
    const fewerBytes = syntheticReport({ bytesPerPass: 2 ** 20 });
    expect(compareReports(syntheticReport(), fewerBytes).regressions.filter((change) => change.metric.startsWith('bytes'))).toEqual([]);
    expect(compareReports(fewerBytes, syntheticReport()).regressions.filter((change) => change.metric.startsWith('bytes'))).toHaveLength(4);
  });

  it('does not flag a fitted cost that moved by less than its error, and honours the threshold', () => {
    const noisy = compareReports(syntheticReport({ perPassMs: 2, standardErrorMs: 1 }), syntheticReport({ perPassMs: 2.5, standardErrorMs: 1 }));
    expect(noisy.regressions.filter((change) => change.metric === 'per-pass cost (ms)')).toEqual([]);
    const loose = compareReports(syntheticReport({ perPassMs: 2 }), syntheticReport({ perPassMs: 4 }), { threshold: 1.5 });
    expect(loose.regressions).toEqual([]);
    expect(() => compareReports(syntheticReport(), syntheticReport(), { threshold: -1 })).toThrow(ArgumentError);
  });

  it('lists configurations found in one report only', () => {
    const base = syntheticReport();
    const head = { ...base, rows: base.rows.filter((row) => row.variant !== 'dirty-pages') };
    const comparison = compareReports(base, head);
    expect(comparison.onlyInBase).toContain('dirty-pages/64MiB/p2/d4/w0.01/s1');
    expect(comparison.regressions).toEqual([]);
  });
});
