// ncu-report-csv.py against a stand-in for ncu's Python report interface (__fixtures__/ncu_report.py),
// read back by parseNcu as summarize.mjs reads ncu's own CSV.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseNcu } from './ncu-csv.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'ncu-report-csv-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const copy = { demangled: 'void at::copy_kernel<8>(int, at::Array<char *, 2>)', function: 'copy_kernel' };
const gemm = { demangled: 'nvjet_sm90_tst_64x48', function: 'nvjet_sm90_tst_64x48' };
const report = {
  ranges: [
    [{ name: copy, metrics: { 'gpu__time_duration.sum': 2304, 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 0.043158117, 'device__attribute_display_name': 'NVIDIA H200', 'launch__grid_size': 4 } }],
    [
      { name: gemm, metrics: { 'gpu__time_duration.sum': 5632, 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 12.3456789 } },
      { name: copy, metrics: { 'gpu__time_duration.sum': 2272 } },
    ],
  ],
};
const reportPath = join(folder, 'report.json');
writeFileSync(reportPath, JSON.stringify(report));

function convert(...args) {
  return spawnSync('python3', [join(here, 'ncu-report-csv.py'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: join(here, '__fixtures__') },
  });
}

describe('ncu-report-csv.py', () => {
  it('writes the chosen metrics of every kernel, in profile order, at full precision', () => {
    const result = convert(reportPath, 'gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed');
    expect(result.status).toBe(0);
    const kernels = parseNcu(result.stdout);
    expect(kernels.map((kernel) => [kernel.id, kernel.name])).toEqual([
      [0, copy.demangled],
      [1, gemm.demangled],
      [2, copy.demangled],
    ]);
    expect(kernels[0].metrics['sm__throughput.avg.pct_of_peak_sustained_elapsed']).toBe(0.043158117);
    expect(kernels[1].metrics['sm__throughput.avg.pct_of_peak_sustained_elapsed']).toBe(12.3456789);
    // A kernel without the metric has no value, not 0.
    expect(kernels[2].metrics['gpu__time_duration.sum']).toBe(2272);
    expect(kernels[2].metrics).not.toHaveProperty('sm__throughput.avg.pct_of_peak_sustained_elapsed');
  });

  it("writes every numeric metric of the first kernel but the device's and the launch's when none are named", () => {
    const result = convert(reportPath);
    expect(result.status).toBe(0);
    const header = result.stdout.split('\n')[0];
    expect(header).toBe('"ID","Kernel Name","gpu__time_duration.sum","sm__throughput.avg.pct_of_peak_sustained_elapsed"');
  });

  it('exits 2 and says which report could not be read', () => {
    const result = convert(join(folder, 'missing.json'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('missing.json could not be read');
  });
});
