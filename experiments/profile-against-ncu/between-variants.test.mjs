// between-variants.mjs on a folder of made-up ncu runs and two variants: ncu's position between the
// variants launch by launch, the kernels' code sizes from capture.json, and usage errors.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderWith } from './made-up-folder.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const names = ['void copy_kernel<8>(int)', 'void reduce_kernel<4>(int)'];
/** An ncu run as ncu-report-csv.py writes it: a header, a row of units, a row per launch. */
const ncuRun = (durations) =>
  [['ID', 'Kernel Name', 'gpu__time_duration.sum'], ['', '', 'ns'], ...durations.map((duration, index) => [index, names[index], duration])]
    .map((row) => row.map((cell) => `"${cell}"`).join(','))
    .join('\n')
    .concat('\n');
const profile = (durations) => JSON.stringify({ dispatches: durations.map((duration, index) => ({ kernel: ['_Z11copy_kernelILi8EEvi', '_Z13reduce_kernelILi4EEvi'][index], metrics: { 'gpu__time_duration.sum': duration } })) });

const run = (...args) => spawnSync(process.execPath, [join(here, 'between-variants.mjs'), ...args], { encoding: 'utf8' });

describe('between-variants.mjs', () => {
  it("places ncu's mean between the variants, leaves out launches whose variants differ by less than ncu's spread, and gives the code sizes", () => {
    const capture = { program: {}, capture: { kernels: [{ function: '_Z13reduce_kernelILi4EEvi', launches: 1, codeBytes: 9216, registers: 40 }] } };
    const folder = folderWith('between-variants', {
      'ncu-1.csv': ncuRun([2000, 11000]),
      'ncu-2.csv': ncuRun([2100, 11200]),
      'warm/profile.json': profile([2120, 12000]),
      'cold/profile.json': profile([2080, 8000]),
      'capture.json': `{"loss": 1}\n${JSON.stringify(capture)}\n`,
    });
    const result = run(folder, 'warm', 'cold');
    expect(result.status, result.stderr).toBe(0);
    // The copy's variants differ by 40 ns against ncu's 100: no position. The reduce: (11100 - 8000) / 4000.
    expect(result.stdout).toMatch(/\| 0 \| void copy_kernel<8>\(int\) \| - \| - \| 2050\.0 \| 100\.0 \| 2120 \| 2080 \| - \|/);
    expect(result.stdout).toMatch(/\| 1 \| void reduce_kernel<4>\(int\) \| 9216 \| 40 \| 11100\.0 \| 200\.0 \| 12000 \| 8000 \| 0\.78 \|/);
    expect(result.stdout).toContain('median over the 1 launches whose variants differ by more than ncu\'s spread: 0.78');
  });

  it('is a usage error without two ncu runs or without the variants', () => {
    const folder = folderWith('between-variants', { 'ncu-1.csv': ncuRun([2000, 11000]), 'warm/profile.json': profile([1, 1]) });
    expect(run(folder, 'warm', 'cold').status).toBe(2);
    expect(run(folder).status).toBe(2);
  });
});
