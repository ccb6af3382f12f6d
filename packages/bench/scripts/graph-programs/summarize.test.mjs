// summarize.mjs on a made-up folder of run.sh (__fixtures__/run-folder-fixture.mjs): what it prints
// and writes for a graph program and the NCCL program, and its refusals: a folder that is not
// run.sh's, a file a step should have written, a metric the profile did not measure.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRunFolder } from './__fixtures__/run-folder-fixture.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'graph-programs-summary-'));
const complete = join(root, 'complete');
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => writeRunFolder(complete));

function summarize(folder, env = {}) {
  const environment = { ...process.env, ...env };
  if (!('METRICS' in env)) delete environment.METRICS;
  return spawnSync(process.execPath, [join(here, 'summarize.mjs'), folder], { encoding: 'utf8', env: environment });
}

/** A copy of the complete folder, changed by `change(folder)`. */
function variant(name, change) {
  const folder = join(root, name);
  cpSync(complete, folder, { recursive: true });
  change(folder);
  return folder;
}

describe('graph-programs summarize.mjs', () => {
  it('is given replay and profile fixtures that follow the schemas kreplay writes by', () => {
    const ajv = new Ajv({ allowUnionTypes: true });
    const schema = (file) => JSON.parse(readFileSync(join(here, '..', '..', 'schema', file), 'utf8'));
    const replay = ajv.compile(schema('capture-replay-result.schema.json'));
    const profile = ajv.compile(schema('profile-report.schema.json'));
    for (const file of ['forward/replay.json', 'forward/replay-graph.json', 'nccl/replay.json']) {
      expect(replay(JSON.parse(readFileSync(join(complete, file), 'utf8'))), `${file}: ${JSON.stringify(replay.errors)}`).toBe(true);
    }
    for (const file of ['forward/profile.json', 'forward/profile-graph.json']) {
      expect(profile(JSON.parse(readFileSync(join(complete, file), 'utf8'))), `${file}: ${JSON.stringify(profile.errors)}`).toBe(true);
    }
  });

  it('counts the kernel nodes captured beside ncu, and the program\'s result under capture', () => {
    const result = summarize(complete);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('capture: 11.00 s wall (exit 0), +3.00 s over the program alone; 6 launches: 6 kernel nodes of 2 graph launches (3, 3 nodes each), 0 ordinary launches');
    expect(result.stdout).toContain("the program's result under capture: the same");
    expect(result.stdout).toContain('ncu --graph-profiling node: 2 runs, kernels per run 6, 6; kreplay profile: 6 launches (6 kernel nodes), 6 measured');
  });

  it('gives each replay\'s bit-exact count, and the reason of each launch that did not reproduce', () => {
    const { stdout } = summarize(complete);
    expect(stdout).toContain('replay --verify full: 6/6 launches reproduce the program bit-exactly (6 kernel nodes)');
    expect(stdout).toContain('replay --verify full --graph-profiling graph: 5/6 launches reproduce the program bit-exactly (6 kernel nodes, 1 graph launch replayed as one graph each); mismatched 1');
    expect(stdout).toMatch(/#4 \S+ \[graph 0x7a00 node 2, launch 1\]: mismatch: memory after differs from the program's in 2 of 10 pages/);
  });

  it('compares profiling with ncu: cost beyond the program alone, and each metric launch for launch', () => {
    const { stdout } = summarize(complete);
    // ncu: (38 - 8 + 42 - 8) / 2 = 32 s; kreplay 6 s; with the capture's 3 s, 9 s.
    expect(stdout).toContain('ncu/kreplay 5.3x, with the capture\'s cost 3.6x (on 6 nodes: the acceptance asks 10x on 100 or more)');
    // durations: kreplay 1.02x, ncu's runs 1x and 1.02x: +0.99% against a spread of 1.98%.
    expect(stdout).toContain('| gpu__time_duration.sum | 6 | 0.99% | 0.99% | 1.98% |');
    expect(stdout).toContain('| sm__throughput.avg.pct_of_peak_sustained_elapsed | 6 | -5.94% | 5.94% | 1.98% |');
    expect(stdout).toContain("kernels with every metric of every launch within ncu's spread (agreement.mjs): 0 of 3");
    const judged = summarize(complete, { METRICS: 'gpu__time_duration.sum' });
    expect(judged.stdout).toContain("within ncu's spread (agreement.mjs): 3 of 3");
  });

  it('pairs each graph launch\'s result with ncu\'s graph mode', () => {
    const { stdout } = summarize(complete);
    expect(stdout).toContain('profile --graph-profiling graph (measure dispatch): 2 results for graph launches (of 2 rows) for 2 captured graph launches; ncu --graph-profiling graph: 2 results');
    expect(stdout).toContain('graph 0x7a00, launch 1 (3 nodes): kreplay 20200 ns, ncu 20000 ns, ratio 1.010');
    expect(stdout).toContain('median duration ratio kreplay/ncu: 1.010');
  });

  it('counts the collectives of the NCCL program, and names NCCL\'s kernels it captured as ordinary launches', () => {
    const { stdout } = summarize(complete);
    expect(stdout).toContain('collectives: 3 kernels counted as collective, not recorded (the program ran all_reduce_sum 3, all_reduce_avg 3, all_to_all_single 3); NCCL\'s kernels captured as ordinary launches: _Z13oneRankReduceI13FuncPreMulSumIfEEvPvS2_mmb');
    expect(stdout).toContain('2 launches: no graph launch (graphLaunches 0), 2 ordinary launches');
    expect(stdout).toContain('replay --verify full: 2/2 launches reproduce');
    expect(stdout).not.toMatch(/## nccl[\s\S]*profile \(node mode\)/);
  });

  it('writes summary.txt as printed and summary.json with the same facts', () => {
    const { stdout } = summarize(complete);
    expect(readFileSync(join(complete, 'summary.txt'), 'utf8')).toBe(stdout);
    const json = JSON.parse(readFileSync(join(complete, 'summary.json'), 'utf8'));
    const forward = json.programs.find((program) => program.name === 'forward');
    expect(forward.capture).toMatchObject({ launches: 6, kernelNodes: 6, graphLaunches: 2, ordinaryLaunches: 0 });
    expect(forward.replayGraph).toMatchObject({ reproduced: 5, mismatched: 1, graphRanges: 1 });
    expect(forward.graphProfile.perLaunch).toHaveLength(2);
    expect(forward.program.resultUnchanged).toBe(true);
    expect(json.programs.find((program) => program.name === 'nccl').collectives.collective).toBe(3);
  });

  it('says when the program\'s result under capture differs', () => {
    const folder = variant('changed-result', (at) => {
      const [line, report] = readFileSync(join(at, 'forward', 'capture.json'), 'utf8').trim().split('\n');
      writeFileSync(join(at, 'forward', 'capture.json'), `${JSON.stringify({ ...JSON.parse(line), outputChecksum: '0x1' })}\n${report}\n`);
    });
    expect(summarize(folder).stdout).toContain("the program's result under capture: DIFFERENT (0x1f2e3d4c5b6a alone, 0x1 under capture)");
  });

  it('names a file a step should have written with the reason, and exits 1 after writing the rest', () => {
    const folder = variant('missing', (at) => {
      rmSync(join(at, 'forward', 'ncu-node-1.csv'));
      rmSync(join(at, 'forward', 'ncu-node-2.csv'));
      writeFileSync(join(at, 'forward', 'profile-graph.json'), '');
      writeFileSync(join(at, 'timings.txt'), readFileSync(join(at, 'timings.txt'), 'utf8').replace('forward.profile-graph 5.0 exit=0', 'forward.profile-graph 150.0 exit=124'));
      writeFileSync(join(at, 'skipped.txt'), 'forward.ncu-node-1 after 331 s, past BUDGET=330 s\n');
    });
    const result = summarize(folder);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('MISSING forward/ncu-node-N.csv: skipped: after 331 s, past BUDGET=330 s');
    expect(result.stdout).toContain('MISSING forward/profile-graph.json: timed out (STEP_TIMEOUT) after 150 s');
    expect(result.stdout).toContain('profile --graph-profiling graph: no report');
    expect(result.stdout).toContain('replay --verify full: 6/6');
    expect(result.stderr).toContain('2 expected files are missing or unreadable: forward/profile-graph.json, forward/ncu-node-N.csv');
    expect(readFileSync(join(folder, 'summary.txt'), 'utf8')).toBe(result.stdout);
  });

  it('refuses a folder that run.sh did not write, and a metric the profile did not measure', () => {
    const empty = mkdtempSync(join(root, 'empty-'));
    const noTimings = summarize(empty);
    expect(noTimings.status).toBe(2);
    expect(noTimings.stderr).toContain('has no timings.txt: it is not a folder written by graph-programs/run.sh');
    writeFileSync(join(empty, 'timings.txt'), '');
    expect(summarize(empty).stderr).toContain('holds no program folder with a steps.txt');
    const unknown = variant('unknown-metric', () => undefined);
    const metric = summarize(unknown, { METRICS: 'lts__t_sectors.sum' });
    expect(metric.status).toBe(2);
    expect(metric.stderr).toContain('forward: METRICS names lts__t_sectors.sum, which the profile did not measure');
    expect(spawnSync(process.execPath, [join(here, 'summarize.mjs')], { encoding: 'utf8' }).status).toBe(2);
  });
});
