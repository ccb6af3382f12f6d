// graph-summary.mjs's pairing of kreplay's graph-mode rows with ncu's graph-mode results, and its
// count of kernel nodes per graph launch.
import { describe, expect, it } from 'vitest';
import { graphProfileFacts, nodesPerGraphLaunch } from './graph-summary.mjs';

const duration = 'gpu__time_duration.sum';
const row = (kernel, ns) => ({ dispatch: 0, kernel, range: null, replayed: true, passes: 1, wallMs: 1, bytesCopied: 0, metrics: { [duration]: ns } });
const result = (name, ns) => ({ id: 0, name, metrics: { [duration]: ns } });
const profile = (rows) => ({ measure: 'dispatch', dispatches: rows });
const timings = { 'compiled.program': { seconds: 10, exit: 0 }, 'compiled.ncu-graph-1': { seconds: 25, exit: 0 }, 'compiled.profile-graph': { seconds: 5, exit: 0 } };

describe('graph-programs graph-summary', () => {
  it('takes ncu\'s results at the graph rows\' places when ncu also measured the kernels launched outside a graph', () => {
    const rows = [row('_Z4copyPfS_', 900), row('graph 0x10, launch 0 (12 nodes)', 50_000), row('_Z4copyPfS_', 900), row('graph 0x10, launch 1 (12 nodes)', 52_000)];
    const ncu = [result('copy(float *, float *)', 1000), result('graph', 49_000), result('copy(float *, float *)', 1000), result('graph', 52_000)];
    const facts = graphProfileFacts(profile(rows), [ncu], 2, timings, 'compiled');
    expect(facts).toMatchObject({ graphResults: 2, ncuResults: 4, paired: true, ncuSecondsBeyondProgram: [15] });
    expect(facts.perLaunch.map((launch) => [launch.kreplayNs, launch.ncuNs])).toEqual([[50_000, 49_000], [52_000, 52_000]]);
    // median of ncu-csv.mjs: the upper of the two middle values
    expect(facts.medianRatio).toBeCloseTo(50 / 49, 9);
  });

  it('pairs graph rows with ncu\'s results in order when both hold the graphs alone, and pairs none when the counts fit neither', () => {
    const rows = [row('_Z4copyPfS_', 900), row('graph 0x10, launch 0 (12 nodes)', 50_000)];
    expect(graphProfileFacts(profile(rows), [[result('graph', 40_000)]], 1, timings, 'compiled').perLaunch).toEqual([
      { name: 'graph 0x10, launch 0 (12 nodes)', kreplayNs: 50_000, ncuNs: 40_000, ratio: 1.25 },
    ]);
    const unpaired = graphProfileFacts(profile(rows), [[result('graph', 40_000), result('graph', 42_000), result('graph', 44_000)]], 1, timings, 'compiled');
    expect(unpaired).toMatchObject({ paired: false, perLaunch: [], medianKreplayNs: 50_000, medianNcuNs: 42_000, medianRatio: null });
  });

  it('counts kernel nodes per graph launch from rows that name their graph', () => {
    const node = (graphLaunch) => ({ graph: { graph: '0x10', node: '0x1', nodeIndex: 0, graphLaunch } });
    expect(nodesPerGraphLaunch([node(1), {}, node(0), node(1)])).toEqual([{ graphLaunch: 0, nodes: 1 }, { graphLaunch: 1, nodes: 2 }]);
  });
});
