// summarize.mjs's METRICS on a made-up folder: the metrics judged against ncu's spread are those
// named (sol: the SpeedOfLight list), and a metric the profile did not measure is refused by name.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'summarize-metrics-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sol = readFileSync(join(here, '..', 'speed-of-light-metrics.sh'), 'utf8').match(/^metrics=(.*)$/m)[1].split(',');
const counter = 'dram__sectors_write.sum';

/** An ncu csv of one kernel: each SpeedOfLight metric `value`, the counter `counterValue`. */
function ncuCsv(value, counterValue) {
  const columns = ['ID', 'Kernel Name', ...sol, counter];
  const row = ['0', 'fill', ...sol.map(() => String(value)), String(counterValue)];
  return [columns, columns.map(() => ''), row].map((cells) => `"${cells.join('","')}"`).join('\n') + '\n';
}

// kreplay inside ncu's 10..12 on every SpeedOfLight metric, far outside it on the counter.
const folder = join(root, 'run');
mkdirSync(join(folder, 'warm'), { recursive: true });
writeFileSync(join(folder, 'machine.txt'), 'NVIDIA H100 80GB HBM3, 580.159.04, 81559 MiB\n');
writeFileSync(join(folder, 'ncu-1.csv'), ncuCsv(10, 1000));
writeFileSync(join(folder, 'ncu-2.csv'), ncuCsv(12, 1100));
writeFileSync(join(folder, 'warm', 'profile.json'), JSON.stringify({
  metrics: [...sol, counter],
  dispatches: [{ kernel: 'fill', metrics: { ...Object.fromEntries(sol.map((metric) => [metric, 11])), [counter]: 50 } }],
}));

function summarize(metrics) {
  const env = { ...process.env };
  delete env.METRICS;
  if (metrics !== undefined) env.METRICS = metrics;
  return spawnSync(process.execPath, [join(here, 'summarize.mjs'), folder, 'warm'], { encoding: 'utf8', env });
}

describe('summarize.mjs METRICS', () => {
  it('judges every metric of the profile by default, so the counter keeps the kernel from agreeing', () => {
    const result = summarize();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('metrics judged: all of the profile\'s 10');
    expect(result.stdout).toContain('distinct kernels with every metric of every launch inside ncu\'s spread: 0');
  });

  it('judges only the SpeedOfLight metrics with METRICS=sol, and only those named with a list', () => {
    const solOnly = summarize('sol');
    expect(solOnly.status, solOnly.stderr).toBe(0);
    expect(solOnly.stdout).toContain('metrics judged: 9 of the profile\'s 10');
    expect(solOnly.stdout).toContain('distinct kernels with every metric of every launch inside ncu\'s spread: 1');
    const named = summarize(`${sol[0]},${counter}`);
    expect(named.stdout).toContain('metrics judged: 2 of the profile\'s 10');
    expect(named.stdout).toContain('inside ncu\'s spread: 0');
  });

  it('refuses a metric the profile did not measure, naming it and what it measured', () => {
    const result = summarize('lts__t_sectors.sum');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('METRICS names lts__t_sectors.sum, which the profile did not measure; it measured gpu__time_duration.sum');
  });
});
