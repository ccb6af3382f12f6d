// sample-spread.mjs on a made-up folder: each sample's agreement beside the medians', kreplay's own
// spread beside ncu's, the bias in units of ncu's spread, and the refusals.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderWith } from './made-up-folder.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const run = (environment, ...args) => spawnSync(process.execPath, [join(here, 'sample-spread.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, ...environment } });

/** An ncu run of two launches of kernels a and b: [duration, lts] each. */
function ncuRun([[durationA, ltsA], [durationB, ltsB]]) {
  const rows = [['ID', 'Kernel Name', 'duration', 'lts'], ['', '', 'ns', '%'], [0, 'a', durationA, ltsA], [1, 'b', durationB, ltsB]];
  return rows.map((row) => `"${row.join('","')}"`).join('\n') + '\n';
}
const ncu = {
  'ncu-1.csv': ncuRun([[100, 50], [200, 40]]),
  'ncu-2.csv': ncuRun([[104, 51], [204, 41]]),
  'ncu-3.csv': ncuRun([[102, 50], [202, 40]]),
};
/** kreplay's row of one launch: the medians and each sample's values. */
const row = (kernel, samples) => {
  const sorted = (metric) => samples.map((values) => values[metric]).sort((x, y) => x - y);
  return { kernel, metrics: { duration: sorted('duration')[1], lts: sorted('lts')[1] }, sampleMetrics: samples };
};
const profile = {
  metrics: ['duration', 'lts'],
  dispatches: [
    // a: sample 3 alone is far off on duration; the median agrees.
    row('a', [{ duration: 102, lts: 50 }, { duration: 103, lts: 50.5 }, { duration: 150, lts: 50 }]),
    // b: every sample's lts is 10 ncu spreads above: a bias no sample can remove.
    row('b', [{ duration: 202, lts: 50 }, { duration: 203, lts: 50 }, { duration: 201, lts: 50 }]),
  ],
};

describe('sample-spread.mjs', () => {
  it("counts each sample's agreement and the medians', and sets kreplay's spread beside ncu's", () => {
    const folder = folderWith('kreplay-sample-spread', { ...ncu, 'three/profile.json': JSON.stringify(profile) });
    const result = run({ METRICS: '' }, folder, 'three');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('three: 3 samples per launch, against 3 ncu runs, 2 distinct kernels');
    expect(result.stdout).toContain('  sample 1 alone agrees on 1\n  sample 2 alone agrees on 1\n  sample 3 alone agrees on 0\n');
    expect(result.stdout).toContain('  the medians (the profile\'s values) agree on 1');
    // Medians over two launches are the upper of the two (ncu-csv.mjs's median).
    // duration: a's samples 102..150 (48 / 118.3) and b's 201..203 (2 / 202); ncu's 4 / 102 and 4 / 202;
    // a's median 103 from ncu's mean 102 is a quarter of the spread, b's is at the mean.
    expect(result.stdout).toContain('| duration | 40.56% | 3.92% | 0.25 |');
    // lts: a's samples 50..50.5, b's all 50; ncu's 1 / 50.33 and 1 / 40.33; b's median 9.67 spreads above.
    expect(result.stdout).toContain('| lts | 1.00% | 2.48% | 9.67 |');
  });

  it('refuses a profile of one sample per launch, a metric it did not measure, and a folder without ncu runs', () => {
    const single = { ...profile, dispatches: profile.dispatches.map(({ sampleMetrics, ...rest }) => rest) };
    const folder = folderWith('kreplay-sample-spread-refusals', { ...ncu, 'one/profile.json': JSON.stringify(single), 'three/profile.json': JSON.stringify(profile) });
    const one = run({}, folder, 'one');
    expect(one.status).toBe(2);
    expect(one.stderr).toMatch(/one's profile holds one sample per launch \(no sampleMetrics\); profile with --samples 2 or more/);
    const unknown = run({ METRICS: 'duration,dram' }, folder, 'three');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/METRICS names dram, which the profile did not measure/);
    const bare = run({}, folderWith('kreplay-sample-spread-bare', { 'three/profile.json': JSON.stringify(profile) }), 'three');
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/^usage: /);
  });
});
