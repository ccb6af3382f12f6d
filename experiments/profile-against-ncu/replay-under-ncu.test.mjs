// replay-under-ncu.mjs on a folder of made-up ncu runs: a replay run that measures as the program's
// runs agree, one that reads every kernel longer does not, and a folder without replay runs is a
// usage error.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderWith } from './made-up-folder.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const kernels = ['void at::copy_kernel<8>(int)', 'nvjet_sm90_tst_64x48', 'void at::copy_kernel<8>(int)'];
const metrics = ['gpu__time_duration.sum', 'lts__throughput.avg.pct_of_peak_sustained_elapsed'];

/** One run as ncu-report-csv.py writes it (a header, a row of units, a row per launch): lts 50%. */
function run(durations) {
  const header = ['ID', 'Kernel Name', ...metrics];
  const units = ['', '', 'ns', '%'];
  const rows = kernels.map((name, index) => [index, name, durations[index], 50]);
  return [header, units, ...rows].map((row) => row.map((cell) => `"${cell}"`).join(',')).join('\n').concat('\n');
}


function judge(folder) {
  return spawnSync(process.execPath, [join(here, 'replay-under-ncu.mjs'), folder], { encoding: 'utf8' });
}

const program = { 'ncu-1.csv': run([2000, 5000, 2100]), 'ncu-2.csv': run([2100, 5200, 2000]), 'ncu-3.csv': run([2050, 5100, 2050]) };

describe('replay-under-ncu.mjs', () => {
  it('counts a replay run that measures within the program runs as agreeing on every kernel', () => {
    const result = judge(folderWith('replay-under-ncu', { ...program, 'ncu-replay-1.csv': run([2040, 5080, 2060]), 'ncu-replay-2.csv': run([3000, 9000, 3000]) }));
    expect(result.status).toBe(0);
    // Two distinct kernels; the first replay run agrees on both, the second (every kernel longer) on none.
    expect(result.stdout).toContain('replay runs on 2, 0 of 2');
    expect(result.stdout).toMatch(/\| gpu__time_duration\.sum \| [0-9.]+% \|/);
  });

  it('leaves out launches whose kernel differs between program and replay, and says which', () => {
    const swapped = run([2040, 5080, 2060]).replace('nvjet_sm90_tst_64x48', 'nvjet_other');
    const result = judge(folderWith('replay-under-ncu', { ...program, 'ncu-replay-1.csv': swapped }));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('left out): 1');
    expect(result.stdout).toContain('replay runs on 1 of 1');
  });

  it('is a usage error without replay runs', () => {
    const result = judge(folderWith('replay-under-ncu', program));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('NCU_REPLAY_RUNS');
  });
});
