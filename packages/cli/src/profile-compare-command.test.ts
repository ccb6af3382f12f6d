import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonSchemaProblem, profileComparisonJsonSchema } from '@kreplay/bench';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { smallBenchReport } from './test-bench-report.js';
import { recordingIo } from './test-io.js';

// Two recorded profiles of a training step (3 kernels): in the head, the GEMM's launches take 8%
// longer, softmax 1% less, and softmax launches once more.
const base = fileURLToPath(new URL('./__fixtures__/profile-base.json', import.meta.url));
const head = fileURLToPath(new URL('./__fixtures__/profile-head.json', import.meta.url));
const duration = 'gpu__time_duration.sum';

async function compare(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(['compare', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('kreplay compare of two profiles: a kernel-level gate', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kreplay-compare-profiles-'));
  });

  it('prints per kernel and metric the launches matched, a, b and the delta; exits 0 when nothing moved beyond 10%', async () => {
    const { code, out, err } = await compare(base, head);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain(`matched 6 launches of 3 kernels by name (ncu --app-replay-match name); threshold 10% for every metric`);
    expect(out).toMatch(/^kernel\s+metric\s+launches\s+a\s+b\s+delta\s+gate$/m);
    expect(out).toMatch(/^ampere_sgemm_128x64_tn\s+gpu__time_duration\.sum\s+2\s+412\.16 us\s+445\.13 us\s+\+8\.0%$/m);
    expect(out).toMatch(/^_ZN7cutlass6Kernel\S*\s+gpu__time_duration\.sum\s+2\s+9\.20 us\s+9\.11 us\s+-1\.0%$/m);
    expect(out).toMatch(/^_ZN2at6native29vectorized_elementwise_\S*\.\.\.\S*\s+sm__throughput\.avg\.pct_of_peak_sustained_elapsed\s+2\s+12\.05 %\s+12\.05 %\s+0\.0%$/m);
    expect(out).toContain('launches only in b (not compared):\n  _ZN7cutlass6KernelI26softmax_warp_forward_fp32EEvNT_6ParamsE: launch 3 of its kernel, dispatch 46\n');
  });

  it('exits 1 when a metric moved beyond the threshold for every metric, naming it', async () => {
    const { code, out, err } = await compare(base, head, '--threshold', '5%');
    expect(code).toBe(1);
    expect(out).toMatch(/^1 kernel metric moved beyond the threshold$/m);
    expect(out).toMatch(/^ampere_sgemm_128x64_tn\s+gpu__time_duration\.sum\s+2\s+412\.16 us\s+445\.13 us\s+\+8\.0%\s+MOVED$/m);
    expect(err).toBe('kreplay: [cli] [compare] 1 kernel metric(s) moved beyond the threshold (5% for every metric): gpu__time_duration.sum of ampere_sgemm_128x64_tn (+8.0%). Investigate, or raise --threshold if the change is expected.\n');
    expect((await compare(base, head, '--threshold', '0.05')).code).toBe(1);
  });

  it('takes a threshold per metric, repeatable; then metrics not named are not gated unless a threshold for every metric is given too', async () => {
    expect((await compare(base, head, '--threshold', `${duration}=9%`)).code).toBe(0);
    const gated = await compare(base, head, '--threshold', `${duration}=3%`, '--threshold', 'sm__throughput.avg.pct_of_peak_sustained_elapsed=1%');
    expect(gated.code).toBe(1);
    expect(gated.out).toContain('threshold gpu__time_duration.sum 3%; sm__throughput.avg.pct_of_peak_sustained_elapsed 1% (other metrics not gated)');
    expect(gated.out).toMatch(/gpu__compute_memory_throughput\.avg\.pct_of_peak_sustained_elapsed\s+.*\s+not gated$/m);
    expect((await compare(base, head, '--threshold', '0.5%', '--threshold', `${duration}=9%`)).code).toBe(0);
    expect((await compare(base, head, '--threshold', '20%', '--threshold', `${duration}=0.9%`)).code).toBe(1);
    expect((await compare(base, head, '--threshold', '20%', '--threshold', `${duration}=9%`)).code).toBe(0);
  });

  it('prints the comparison as JSON with its schema id with --json', async () => {
    const { code, out } = await compare(base, head, '--json', '--threshold', '5%');
    expect(code).toBe(1);
    const comparison = JSON.parse(out) as { schema: string; moved: { kernel: string }[]; onlyInB: unknown[] };
    expect(comparison.schema).toBe('urn:kreplay:schema:profile-comparison:1');
    expect(jsonSchemaProblem(profileComparisonJsonSchema, comparison)).toBeNull();
    expect(comparison.moved.map((delta) => delta.kernel)).toEqual(['ampere_sgemm_128x64_tn']);
    expect(comparison.onlyInB).toHaveLength(1);
  });

  it('matches by name, grid and block with --match grid', async () => {
    const profile = JSON.parse(await readFile(head, 'utf8')) as { dispatches: { kernel: string; grid: number[] }[] };
    // The head's GEMM launched on another grid matches no launch of the base by grid.
    const regrid = join(directory, 'regrid.json');
    await writeFile(regrid, JSON.stringify({ ...profile, dispatches: profile.dispatches.map((row) => (row.kernel.startsWith('ampere') ? { ...row, grid: [192, 4, 1] } : row)) }));
    const { code, out } = await compare(base, regrid, '--match', 'grid', '--threshold', '5%');
    expect(code).toBe(0);
    expect(out).toContain('matched 4 launches of 2 kernels by name, grid and block (ncu --app-replay-match grid)');
    expect(out).toContain('launches only in a (not compared):\n  ampere_sgemm_128x64_tn [96x4x1/128x1x1]: launch 1 of its kernel, dispatch 40');
    expect(out).toMatch(/launches only in b \(not compared\):\n(.*\n)*  ampere_sgemm_128x64_tn \[192x4x1\/128x1x1\]: launch 1 of its kernel, dispatch 40\n/);
    const bad = await compare(base, head, '--match', 'all');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Allowed choices are name, grid/);
  });

  it.each<[string, () => Promise<string[]>, RegExp]>([
    ['a bench report and a profile', async () => [await benchReport(), base], /^kreplay: \[cli\] \[compare\] .*r\.json is a bench report and .*profile-base\.json is a profile\. Compare two bench reports, or two profiles\.\n$/],
    ['a profile without launch shapes matched by grid', async () => [base, await shapeless(), '--match', 'grid'], /^kreplay: \[bench\] \[compare\] .*shapeless\.json: 7 of 7 launches have no launch shape \(grid, block\) to match by grid\. Match by name/],
    ['a threshold for a metric neither profile measured', async () => [base, head, '--threshold', 'gpu__time_duraton.sum=3%'], /a threshold names gpu__time_duraton\.sum, which neither profile measured/],
    ['a threshold that is not one', async () => [base, head, '--threshold', 'fast'], /"fast" is not a threshold: pass a percentage or fraction for every metric \(5% or 0\.05\), or METRIC=5% for one metric\./],
    ['one threshold given twice', async () => [base, head, '--threshold', '5%', '--threshold', '3%'], /--threshold for every metric is given twice \(5% and 3%\)\. Give it once\./],
    ['profiles of no common metric', async () => [base, await otherMetrics()], /measured no metric in common/],
    ['profiles sharing no launch', async () => [base, await renamed()], /share no launch matched by name, so nothing was compared \(kernels: .+; .+\)\. Compare profiles of the same program: launches match by kernel name and order\./],
    ['an old profile without a schema', async () => [base, await older()], /older\.json: is a kreplay profile from before profiles carried a schema \(it has dispatches and metrics, and no schema field\)\. Profile again with this kreplay/],
  ])('exits 2 for %s, saying what is wrong in one line', async (_, args, pattern) => {
    const { code, out, err } = await compare(...(await args()));
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(pattern);
    expect(err.split('\n')).toHaveLength(2);
  });

  it('refuses --match and per-metric thresholds with bench reports', async () => {
    const report = await benchReport();
    expect((await compare(report, report, '--match', 'name')).err).toMatch(/--match name matches the launches of profiles, and .* are bench reports\. Leave out --match\./);
    expect((await compare(report, report, '--threshold', 'seconds=5%')).err).toMatch(/--threshold seconds=\.\.\. sets the threshold of a profile metric, and bench reports take one threshold for every metric/);
    expect((await compare(report, report, '--threshold', '5%')).code).toBe(0);
  });

  const write = async (name: string, value: unknown) => {
    const path = join(directory, name);
    await writeFile(path, JSON.stringify(value));
    return path;
  };
  const profileOf = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as { dispatches: Record<string, unknown>[]; metrics: string[]; units: object };
  const benchReport = () => write('r.json', smallBenchReport(2));
  const shapeless = async () => {
    const profile = await profileOf(head);
    return write('shapeless.json', { ...profile, dispatches: profile.dispatches.map(({ grid: _grid, block: _block, ...row }) => row) });
  };
  const otherMetrics = async () => {
    const profile = await profileOf(head);
    return write('other-metrics.json', { ...profile, metrics: ['lts__t_bytes.sum'], units: { 'lts__t_bytes.sum': 'byte' }, dispatches: profile.dispatches.map((row) => ({ ...row, metrics: { 'lts__t_bytes.sum': 1 } })) });
  };
  const renamed = async () => {
    const profile = await profileOf(head);
    return write('renamed.json', { ...profile, dispatches: profile.dispatches.map((row) => ({ ...row, kernel: `other_${String(row.kernel)}` })) });
  };
  const older = async () => {
    const { schema: _schema, schemaVersion: _version, ...profile } = (await profileOf(base)) as Record<string, unknown>;
    return write('older.json', profile);
  };
});
