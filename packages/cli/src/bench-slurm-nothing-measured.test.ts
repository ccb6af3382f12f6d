import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { smallBenchReport } from './test-bench-report.js';
import { spawnCli, type SpawnCliOptions } from './test-spawn-cli.js';

// `kreplay bench --slurm` (the built CLI) over a fake Slurm on PATH: sinfo, sbatch and scontrol are
// shell scripts. sbatch runs nothing; the test places the report each task "wrote" and says, through
// scontrol, how each task ended.
const root = mkdtempSync(join(tmpdir(), 'kreplay-bench-slurm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bundle = join(root, 'bundle');
mkdirSync(bundle);
writeFileSync(join(bundle, 'kreplay.mjs'), '');
writeFileSync(join(bundle, 'kreplay.node'), '');
const earlier = '{"an earlier comparison": true}\n';

/** A folder of fake Slurm tools whose one job array's task 0 is in `state` (`COMPLETED`, `FAILED`, `RUNNING`). */
function fakeSlurm(name: string, state: string): string {
  const bin = join(root, `${name}-bin`);
  mkdirSync(bin);
  const tools = {
    sinfo: 'echo debug',
    sbatch: 'echo 4242',
    scontrol: `echo "JobId=4243 ArrayJobId=4242 ArrayTaskId=0 JobState=${state} ExitCode=${state === 'FAILED' ? '3:0' : '0:0'} NodeList=node0"`,
  };
  for (const [tool, body] of Object.entries(tools)) {
    writeFileSync(join(bin, tool), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  return bin;
}

/** Runs `kreplay bench --slurm -o <name>.json` over the fake Slurm; `report` is what task 0 left, if anything. */
async function benchSlurm(name: string, state: string, report: object | undefined, onStderr?: SpawnCliOptions['onStderr']) {
  const out = join(root, `${name}.json`);
  writeFileSync(out, earlier);
  mkdirSync(`${out}.tasks`);
  if (report !== undefined) writeFileSync(join(`${out}.tasks`, 'report-default-0.json'), JSON.stringify(report));
  const env = { ...process.env, PATH: `${fakeSlurm(name, state)}:${process.env['PATH'] ?? ''}` };
  const result = await spawnCli(['bench', '--slurm', '--driver', 'host', '--bundle', bundle, '-o', out], { env, ...(onStderr && { onStderr }) });
  return { ...result, out, written: readFileSync(out, 'utf8') };
}

const fit = { key: 'dirty-pages/64MiB/d4/w0.01/s1', variant: 'dirty-pages', footprintBytes: 64 * 2 ** 20, dispatches: 4, writeFraction: 0.01, streams: 1, passes: [2, 5], fixedMs: 1, perPassMs: 2, fixedStandardErrorMs: 0, perPassStandardErrorMs: 0, rSquared: 1, points: 2 };

describe('kreplay bench --slurm never replaces a comparison with one that holds nothing', () => {
  it('merges a report with a fitted configuration into the comparison (the fake Slurm works)', async () => {
    const result = await benchSlurm('measured', 'COMPLETED', { ...smallBenchReport(), fits: [fit] });
    expect(result.exit, result.stderr).toBe('0');
    expect(JSON.parse(result.written)).toMatchObject({ schema: 'urn:kreplay:schema:device-comparison:1', schemaVersion: 1, complete: true, rows: [{ key: fit.key }] });
  }, 30_000);

  it('no report arrived: exits 1 and keeps what --out held', async () => {
    const result = await benchSlurm('none-arrived', 'FAILED', undefined);
    expect(result.exit).toBe('1');
    expect(result.written).toBe(earlier);
    expect(result.stderr).toMatch(/\[cli\] \[bench\] measured nothing to compare: none of the 1 report\(s\) arrived \(first: task 0 of job 4242 .*ended FAILED with exit 3:0.*\), so .*none-arrived\.json was not written \(what it held is kept\)\./);
  }, 30_000);

  it('the reports that arrived measured nothing: exits 1 and keeps what --out held', async () => {
    const result = await benchSlurm('empty-report', 'COMPLETED', { ...smallBenchReport(), rows: [], fits: [] });
    expect(result.exit).toBe('1');
    expect(result.written).toBe(earlier);
    expect(result.stderr).toMatch(/measured nothing to compare: the 1 report\(s\) that arrived measured no fitted configuration, so .*empty-report\.json was not written/);
  }, 30_000);

  it('SIGTERM before any report arrived: exits 143 and keeps what --out held', async () => {
    let sent = false;
    const result = await benchSlurm('terminated', 'RUNNING', undefined, (stderr, child) => {
      if (sent || !stderr.includes('submitted job array')) return;
      sent = true;
      child.kill('SIGTERM');
    });
    expect(result.exit).toBe('143');
    expect(result.written).toBe(earlier);
    expect(result.stderr).toMatch(/terminated: stopped waiting before any report with a measurement arrived \(0 of 1\), so .*terminated\.json was not written \(what it held is kept\)/);
  }, 30_000);
});
