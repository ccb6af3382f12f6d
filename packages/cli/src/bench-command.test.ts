import type { ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '@kreplay/bench';
import { slurmBenchArguments } from './commands/slurm-bench-action.js';
import { runCli } from './run-cli.js';
import { smallBenchReport } from './test-bench-report.js';
import { interruptingIo, recordingIo } from './test-io.js';
import { benchMeasuredARun, spawnCli } from './test-spawn-cli.js';
import type { SpawnedCliResult } from './test-spawn-cli.js';

const variants = ['reference', 'full/pinned', 'full/device', 'write-set', 'dirty-pages'];

describe('kreplay bench --preset quick on the host driver, end to end', () => {
  let directory: string;
  let report: BenchReport;
  let output: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kreplay-bench-'));
    const io = recordingIo();
    const code = await runCli(['bench', '--preset', 'quick', '--driver', 'host', '--out', join(directory, 'r.json'), '--html', join(directory, 'r.html')], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    output = io.out();
    report = JSON.parse(await readFile(join(directory, 'r.json'), 'utf8')) as BenchReport;
    // Generous: the quick preset takes well over a minute on a small machine that is busy.
  }, 300_000);

  it('writes a complete versioned report with a row per variant, footprint and pass count', () => {
    expect(report).toMatchObject({ schema: 'kreplay-bench-report', version: 1, complete: true, driver: 'host' });
    expect(report.configuration.preset).toBe('quick');
    for (const variant of variants) {
      const rows = report.rows.filter((row) => row.variant === variant && row.sweep === 'passes');
      expect(rows.map((row) => `${row.footprintBytes / 2 ** 20}/${row.passes}`)).toEqual(['16/2', '16/3', '16/5', '16/8', '64/2', '64/3', '64/5', '64/8']);
      for (const row of rows) {
        expect(row.ratios.vsReference?.time).toBeGreaterThan(0);
        expect(row.ratios.vsCopyCeiling?.hostLink).toBeGreaterThan(0);
      }
      expect(report.fits.filter((fit) => fit.variant === variant)).toHaveLength(2);
    }
    expect(report.rows.filter((row) => row.background !== null)).toHaveLength(variants.length);
    expect(report.baselines.checkpoint.reason).toMatch(/not available/);
  });

  it('prints the table and writes an HTML page with Chart.js inline', async () => {
    expect(output).toMatch(/^kreplay bench, preset quick, driver host/);
    expect(output).toMatch(/^dirty-pages\s+passes\s+64MiB\s+8/m);
    expect(output).toContain('fixed and per-pass cost');
    const html = await readFile(join(directory, 'r.html'), 'utf8');
    expect(html).toContain('Chart.js v4');
    expect(html).toContain('id="charts"');
  });

  it('compare passes a report against itself and flags a planted 2x per-pass slowdown', async () => {
    const base = join(directory, 'r.json');
    const same = recordingIo();
    expect(await runCli(['compare', base, base], same)).toBe(0);
    expect(same.out()).toContain('0 regressed');
    // Plant the slowdown against a copy whose dirty-pages fits have a tiny error, so the noise guard
    // (twice the combined standard error) cannot excuse it on a loaded machine.
    const plant = (scale: number) => ({
      ...report,
      fits: report.fits.map((fit) => (fit.variant === 'dirty-pages' ? { ...fit, perPassMs: scale * (Math.abs(fit.perPassMs) + 1), perPassStandardErrorMs: 1e-6 } : fit)),
    });
    const steady = join(directory, 'steady.json');
    const head = join(directory, 'slower.json');
    await writeFile(steady, JSON.stringify(plant(1)));
    await writeFile(head, JSON.stringify(plant(2)));
    const io = recordingIo();
    expect(await runCli(['compare', steady, head, '--threshold', '0.1'], io)).toBe(1);
    expect(io.out()).toMatch(/per-pass cost \(ms\)/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.err()).toMatch(/^kreplay: \[cli\] \[compare\] 2 metric\(s\) regressed by more than 10\.0%: per-pass cost \(ms\) of dirty-pages\/16MiB/);
  });

  it('compare --by-device merges reports of two machines into one table and page; plain compare wants two reports', async () => {
    const base = join(directory, 'r.json');
    const other = join(directory, 'other-machine.json');
    const device = report.devices[0]!;
    await writeFile(other, JSON.stringify({ ...report, machine: { ...report.machine, hostname: 'other' }, devices: [{ ...device, name: 'other device' }] }));
    const io = recordingIo();
    const html = join(directory, 'by-device.html');
    expect(await runCli(['compare', '--by-device', base, other, '--html', html, '--out', join(directory, 'by-device.json')], io)).toBe(0);
    expect(io.out()).toMatch(/device 1: .*\n.*device 2: other device/);
    expect(io.out()).toMatch(/dirty-pages\/16MiB/);
    expect(await readFile(html, 'utf8')).toContain('new Chart(');
    const three = recordingIo();
    expect(await runCli(['compare', base, base, base], three)).toBe(2);
    expect(three.err()).toMatch(/takes a base and a head report, got 3/);
  });

  it('report renders a report file again, as a table and HTML', async () => {
    const io = recordingIo();
    const html = join(directory, 'again.html');
    expect(await runCli(['report', join(directory, 'r.json'), '--html', html], io)).toBe(0);
    expect(io.out()).toContain('raw copy ceiling');
    expect(existsSync(html)).toBe(true);
  });

  it('report --json prints the report it read, and compare --json (both forms) its comparison, as JSON alone', async () => {
    const path = join(directory, 'r.json');
    const reportIo = recordingIo();
    expect(await runCli(['report', path, '--json'], reportIo)).toBe(0);
    expect(JSON.parse(reportIo.out())).toEqual(report);
    const compareIo = recordingIo();
    expect(await runCli(['compare', path, path, '--json'], compareIo)).toBe(0);
    const comparison = JSON.parse(compareIo.out()) as { regressions: unknown[]; changes: unknown[] };
    expect(comparison.regressions).toEqual([]);
    expect(comparison.changes.length).toBeGreaterThan(0);
    const byDeviceIo = recordingIo();
    const merged = join(directory, 'merged.json');
    expect(await runCli(['compare', '--by-device', path, '--json', '-o', merged], byDeviceIo)).toBe(0);
    expect(JSON.parse(byDeviceIo.out())).toEqual(JSON.parse(await readFile(merged, 'utf8')));
    for (const io of [reportIo, compareIo, byDeviceIo]) expect(io.err()).toBe('');
  });

  it('refuses malformed and foreign files and usage errors in one line with exit 2', async () => {
    const foreign = join(directory, 'foreign.json');
    const broken = join(directory, 'broken.json');
    await writeFile(foreign, JSON.stringify({ name: 'package', version: '1.0.0' }));
    await writeFile(broken, '{"schema": "kreplay-bench-report", "version": 1,\n');
    for (const [args, pattern] of [
      [['report', foreign], /foreign\.json: is not a kreplay bench report/],
      [['report', broken], /broken\.json: is not JSON/],
    ] as const) {
      const io = recordingIo();
      expect(await runCli(args, io)).toBe(2);
      expect(io.err().trim().split('\n')).toHaveLength(1);
      expect(io.err()).toMatch(pattern);
      expect(io.err()).not.toMatch(/\n\s+at /);
    }
    for (const args of [['compare', 'one.json'], ['compare', 'a.json', 'b.json', '--threshold', 'x'], ['bench', '--driver', 'host'], ['bench', '--preset', 'huge', '--out', 'x.json']]) {
      const io = recordingIo();
      expect(await runCli(args, io)).toBe(2);
      expect(io.err().trim().split('\n')).toHaveLength(1);
    }
  });
});

/**
 * Runs `kreplay bench --json --out out` on the host driver, its stderr a pipe, and sends the first of
 * `signals` when a progress line shows a run measured (it listens for them before it starts
 * measuring, so no waiting for a fixed time, however loaded the machine), the others at once when it
 * says it received the first; `afterFirst` may arrange more (it returns its cleanup).
 */
async function interruptBench(out: string, signals: readonly NodeJS.Signals[] = ['SIGINT'], afterFirst?: (child: ChildProcess) => () => void): Promise<SpawnedCliResult> {
  let cleanup: (() => void) | undefined;
  let again = signals.length > 1;
  const result = await spawnCli(['bench', '--preset', 'quick', '--driver', 'host', '--json', '-o', out], {
    onStderr: (stderr, child) => {
      if (cleanup === undefined && benchMeasuredARun(stderr)) {
        cleanup = afterFirst?.(child) ?? (() => {});
        child.kill(signals[0]);
      } else if (cleanup !== undefined && again && /^kreplay: (interrupted|terminated); /m.test(stderr)) {
        again = false;
        for (const signal of signals.slice(1)) child.kill(signal);
      }
    },
  });
  cleanup?.();
  return result;
}

describe('kreplay bench interrupted by Ctrl-C', () => {
  it('writes what it measured, marked incomplete, prints it as JSON with --json, and exits 130', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-bench-sigint-'));
    const out = join(directory, 'partial.json');
    const { exit, stdout, stderr } = await interruptBench(out);
    expect(stderr).toMatch(/interrupted; writing what was measured so far/);
    expect(stderr).toMatch(/^kreplay: \[cli\] \[bench\] interrupted: wrote the \d+ runs measured so far to .*partial\.json \(complete: false\)\. Run kreplay bench again to measure everything\.$/m);
    expect(exit).toBe('130');
    const partial = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    expect(partial.complete).toBe(false);
    expect(partial.notes.some((note) => note.startsWith('interrupted after'))).toBe(true);
    // stdout is the same report, as JSON and nothing else.
    expect(JSON.parse(stdout)).toEqual(partial);
  }, 300_000);

  it('keeps the earlier report at --out whole when the second Ctrl-C lands while the new one is written', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-bench-sigint-twice-'));
    const out = join(directory, 'r.json');
    const earlier = `${JSON.stringify({ schema: 'kreplay-bench-report', earlier: true })}\n`;
    await writeFile(out, earlier);
    // The second Ctrl-C the moment anything changes in the folder after the first, that is when the
    // report starts being written (the worst moment for it).
    const { exit, stderr } = await interruptBench(out, ['SIGINT'], (child) => {
      const watcher = watch(directory, () => child.kill('SIGINT'));
      return () => watcher.close();
    });
    expect(stderr).toMatch(/interrupted; writing what was measured so far/);
    // 130 either way: the second Ctrl-C quit at once, or the report was written first; SIGINT: the second came after the bench stopped listening.
    expect(['130', 'SIGINT']).toContain(exit);
    expect(await readdir(directory)).toEqual(['r.json']);
    const text = await readFile(out, 'utf8');
    if (text !== earlier) expect((JSON.parse(text) as BenchReport).schema).toBe('kreplay-bench-report');
  }, 300_000);

  it('treats SIGTERM (timeout, containers, Slurm time limits) as Ctrl-C: writes what it measured and exits 143', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'kreplay-bench-sigterm-')), 'r.json');
    const { exit, stderr } = await interruptBench(out, ['SIGTERM']);
    expect(stderr).toMatch(/terminated; writing what was measured so far/);
    expect(stderr).toMatch(/^kreplay: \[cli\] \[bench\] terminated: wrote the \d+ runs measured so far to .*r\.json \(complete: false\)\./m);
    expect(exit).toBe('143');
    const partial = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    expect(partial.complete).toBe(false);
    expect(partial.rows.length).toBeGreaterThan(0);
  }, 300_000);

  it('writes what it measured when a second Ctrl-C follows the first at once (timeout signals the process and its group)', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'kreplay-bench-sigint-pair-')), 'r.json');
    const { exit, stderr } = await interruptBench(out, ['SIGINT', 'SIGINT']);
    expect(stderr).toMatch(/interrupted; writing what was measured so far/);
    expect(exit).toBe('130');
    const partial = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
    expect(partial.complete).toBe(false);
    expect(partial.rows.length).toBeGreaterThan(0);
  }, 300_000);
});

describe('kreplay bench that measured nothing', () => {
  it('keeps the earlier report at --out when Ctrl-C comes before the first run, and exits 130 saying why', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'kreplay-bench-nothing-')), 'r.json');
    const earlier = JSON.stringify(smallBenchReport());
    await writeFile(out, earlier);
    // Ctrl-C at the first progress line, at 0 runs.
    const io = interruptingIo(/^bench quick: 0\//);
    expect(await runCli(['bench', '--preset', 'quick', '--driver', 'host', '--out', out, '--html', `${out}.html`], io)).toBe(130);
    expect(io.interrupted()).toBe(true);
    expect(io.err()).toMatch(/\nkreplay: \[cli\] \[bench\] interrupted: nothing was measured, so .*r\.json was not written \(what it held is kept\)\./);
    expect(io.out()).toBe('');
    expect(await readFile(out, 'utf8')).toBe(earlier);
    expect(existsSync(`${out}.html`)).toBe(false);
  }, 120_000);

  it('fails with exit 1 and writes nothing when every run was skipped', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-bench-skipped-'));
    const io = recordingIo();
    expect(await runCli(['bench', '--preset', 'quick', '--driver', 'host', '--device-memory', '8MiB', '--out', join(directory, 'r.json')], io)).toBe(1);
    expect(io.err()).toMatch(/^kreplay: \[cli\] \[bench\] measured nothing: all 60 runs were skipped \(first: reference\/16MiB\/p2\/d6\/w0\.01\/s1: needs 16\.0 MiB of device memory, the agent has 8\.0 MiB free\), so .*r\.json was not written \(what it held is kept\)\. Fix what the reason says/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');
    expect(await readdir(directory)).toEqual([]);
  });
});

describe('kreplay bench options that need --slurm', () => {
  it('refuses each Slurm-only option without --slurm with exit 2, before opening the driver', async () => {
    for (const option of [['--partition', 'gpu'], ['--nodes', '2'], ['--bundle', '/tmp'], ['--node-executable', process.execPath], ['--time-limit', '01:00:00']]) {
      const io = recordingIo();
      expect(await runCli(['bench', '--driver', 'cuda', '--out', join(tmpdir(), 'never.json'), ...option], io), option.join(' ')).toBe(2);
      expect(io.err()).toBe(`kreplay: [cli] [bench] ${option[0]} only applies with --slurm. Add --slurm, or leave out ${option[0]}.\n`);
      expect(io.out()).toBe('');
    }
  });

  it('passes the host driver options on to the benches on the nodes', () => {
    expect(slurmBenchArguments({ preset: 'quick', driver: 'host', agents: 2, deviceMemory: 2 ** 30 })).toEqual(['--preset', 'quick', '--driver', 'host', '--agents', '2', '--device-memory', String(2 ** 30)]);
    expect(slurmBenchArguments({ preset: 'standard', driver: 'cuda' })).toEqual(['--preset', 'standard', '--driver', 'cuda']);
  });
});
