// agreement.mjs on made-up ncu runs: the spread rule, the held-out turns, and which metrics keep
// kernels from agreeing.
import { describe, expect, it } from 'vitest';
import { blockingMetrics, heldOutAgreement, kreplayValues, withinSpread } from './agreement.mjs';

const metrics = ['duration', 'lts'];
/** One ncu run: launches of kernels a, b, a with the given durations, lts 50 (51 for b in odd runs). */
const run = (durations, lts = [50, 50, 50]) =>
  ['a', 'b', 'a'].map((name, index) => ({ id: index, name, metrics: { duration: durations[index], lts: lts[index] } }));
const ncuRuns = [run([100, 200, 100]), run([104, 210, 102], [50, 51, 50]), run([102, 205, 101])];
/** kreplay's rows for the same launches. */
const rows = (durations, lts) => durations.map((duration, index) => ({ kernel: ['a', 'b', 'a'][index], metrics: { duration, lts: lts[index] } }));

describe('withinSpread', () => {
  it('takes a value no further from the mean than the range, and refuses one further', () => {
    expect(withinSpread(105, [100, 104])).toBe(true);
    expect(withinSpread(107, [100, 104])).toBe(false);
  });
});

describe('blockingMetrics', () => {
  it('counts kernels that agree, launches outside per metric, and kernels kept out by one metric alone', () => {
    const kreplay = rows([102, 205, 140], [50, 60, 50]);
    const result = blockingMetrics(ncuRuns, (index) => kreplay[index].metrics, metrics);
    expect(result.judged).toBe(2);
    expect(result.agreeing).toBe(0);
    expect(result.outside).toEqual({ duration: 1, lts: 1 });
    expect(result.soleBlocker).toEqual({ duration: 1, lts: 1 });
  });

  it('does not name a sole blocker for a kernel that two metrics keep out', () => {
    const kreplay = rows([102, 300, 101], [50, 60, 50]);
    const result = blockingMetrics(ncuRuns, (index) => kreplay[index].metrics, metrics);
    expect(result.agreeing).toBe(1);
    expect(result.soleBlocker).toEqual({ duration: 0, lts: 0 });
  });

  it('leaves out launches without values', () => {
    const result = blockingMetrics(ncuRuns, () => null, metrics);
    expect(result.judged).toBe(0);
  });

  it('holds a launch kreplay collected nothing for outside on every metric ncu measured', () => {
    const kreplay = [...rows([102, 205, 101], [50, 50.5, 50]).slice(0, 2), { kernel: 'a', metrics: null, error: 'incomplete' }];
    const result = blockingMetrics(ncuRuns, kreplayValues(ncuRuns, kreplay), metrics);
    expect(result.judged).toBe(2);
    expect(result.agreeing).toBe(1);
    expect(result.outside).toEqual({ duration: 1, lts: 1 });
  });
});

describe('heldOutAgreement', () => {
  it('judges each held-out run and kreplay against the other runs', () => {
    const turns = heldOutAgreement(ncuRuns, rows([102, 205, 101], [50, 50.5, 50]), metrics);
    expect(turns.map((turn) => turn.heldOut)).toEqual([1, 2, 3]);
    expect(turns.every((turn) => turn.kreplay.judged === 2)).toBe(true);
    expect(turns[2].kreplay.agreeing).toEqual(['a', 'b']);
  });
});
