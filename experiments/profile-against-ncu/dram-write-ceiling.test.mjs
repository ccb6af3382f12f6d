// dram-write-ceiling.mjs on a made-up folder: a variant's DRAM throughput rescaled to ncu's DRAM
// sectors written, the compute-memory throughput following it only where it was the DRAM's, a
// launch of another kernel left as it was, and the refusals of a folder without the counters.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderWith } from './made-up-folder.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const dram = 'dram__throughput.avg.pct_of_peak_sustained_elapsed';
const gpuDram = 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed';
const computeMemory = 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed';
const lts = 'lts__throughput.avg.pct_of_peak_sustained_elapsed';
const read = 'dram__sectors_read.sum';
const written = 'dram__sectors_write.sum';
const columns = [dram, gpuDram, computeMemory, lts, read, written];

/** An ncu run: one row per launch, [kernel name, sectors written]. */
function ncuRun(launches) {
  const rows = [['ID', 'Kernel Name', ...columns], ['', '', ...columns.map(() => '')],
    ...launches.map(([name, sectorsWritten], index) => [index, name, 40, 40, 40, 30, 1000, sectorsWritten])];
  return rows.map((row) => `"${row.join('","')}"`).join('\n') + '\n';
}


const run = (...args) => spawnSync(process.execPath, [join(here, 'dram-write-ceiling.mjs'), ...args], { encoding: 'utf8' });

describe('dram-write-ceiling.mjs', () => {
  it('rescales DRAM throughput to ncu\'s mean sectors written, and compute-memory throughput only where it was the DRAM\'s', () => {
    const profile = {
      metrics: columns,
      dispatches: [
        // DRAM is the compute-memory throughput: 1000 read + 100 written -> 1000 + 650 (ncu's mean).
        { kernel: '_Z4copyv', metrics: { [dram]: 33, [gpuDram]: 33, [computeMemory]: 33, [lts]: 30, [read]: 1000, [written]: 100 } },
        // Another unit's throughput was the compute-memory throughput: it stays.
        { kernel: '_Z6reducev', metrics: { [dram]: 20, [gpuDram]: 20, [computeMemory]: 45, [lts]: 30, [read]: 1000, [written]: 0 } },
        // Another kernel than ncu's third launch: left as it was.
        { kernel: '_Z5otherv', metrics: { [dram]: 10, [gpuDram]: 10, [computeMemory]: 10, [lts]: 5, [read]: 1000, [written]: 0 } },
      ],
    };
    const folder = folderWith('dram-write-ceiling', {
      'ncu-1.csv': ncuRun([['copy()', 600], ['reduce()', 500], ['fill()', 0]]),
      'ncu-2.csv': ncuRun([['copy()', 700], ['reduce()', 700], ['fill()', 0]]),
      'warm/profile.json': JSON.stringify(profile),
    });
    const result = run(folder, 'warm');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('2 of 3 launches given ncu\'s DRAM sectors written');
    const [copy, reduce, other] = JSON.parse(readFileSync(join(folder, 'warm-ncu-dram-writes', 'profile.json'), 'utf8')).dispatches;
    expect(copy.metrics[dram]).toBeCloseTo((33 * 1650) / 1100, 9);
    expect(copy.metrics[gpuDram]).toBeCloseTo((33 * 1650) / 1100, 9);
    expect(copy.metrics[computeMemory]).toBeCloseTo((33 * 1650) / 1100, 9);
    expect(copy.metrics[written]).toBe(100);
    expect(reduce.metrics[dram]).toBeCloseTo(20 * 1.6, 9);
    expect(reduce.metrics[computeMemory]).toBe(45);
    expect(other.metrics).toEqual(profile.dispatches[2].metrics);
  });

  it('refuses a variant or ncu runs without the DRAM sector counters, and a variant that is not there', () => {
    const withoutCounters = { metrics: [dram, gpuDram], dispatches: [{ kernel: '_Z4copyv', metrics: { [dram]: 1, [gpuDram]: 1 } }] };
    const folder = folderWith('dram-write-ceiling', { 'ncu-1.csv': ncuRun([['copy()', 600]]), 'sol/profile.json': JSON.stringify(withoutCounters) });
    const missing = run(folder, 'sol');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('sol did not measure dram__sectors_read.sum: profile it with the counters (metric set all)');
    expect(run(folder, 'warm').stderr).toMatch(/warm\/profile\.json does not exist: name a variant of the folder/);
    const solNcu = folderWith('dram-write-ceiling', {
      'ncu-1.csv': '"ID","Kernel Name","dram__throughput.avg.pct_of_peak_sustained_elapsed"\n"",""," "\n"0","copy()","40"\n',
      'warm/profile.json': JSON.stringify({ metrics: columns, dispatches: [] }),
    });
    expect(run(solNcu, 'warm').stderr).toContain('ncu\'s runs do not all hold dram__sectors_read.sum: run ncu with NCU_SET=all');
  });
});
