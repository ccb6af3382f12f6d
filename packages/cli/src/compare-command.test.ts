import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BenchReport, BenchRow } from '@kreplay/bench';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

const MiB = 2 ** 20;

/** A small valid report: two variants at two pass counts, each row costing `fixedMs + perPassMs x passes`. */
function report(perPassMs = 2, variants: readonly string[] = ['reference', 'dirty-pages']): BenchReport {
  const row = (variant: string, passes: number): BenchRow => {
    const wallMs = 1 + perPassMs * passes;
    const bytes = { deviceToDevice: MiB * passes, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0 };
    const sample = { index: 0, wallMs, quiesceMs: 0, lockWaitMs: 0, captureMs: 1, passMs: [], restoreMs: [], verifyMs: 0, bytes, stagingBytes: {}, replayed: true, tier: 'device' };
    return {
      key: `${variant}/64MiB/p${passes}/d4/w0.01/s1`, variant, sweep: 'passes', footprintBytes: 64 * MiB, passes, dispatches: 4, writeFraction: 0.01, streams: 1,
      strategy: variant, tier: 'device', dispatchesRun: 2, seconds: (2 * wallMs) / 1000, stopped: null, bytesMeasured: true,
      summary: {
        meanDispatchMs: wallMs, steadyDispatchMs: wallMs, firstDispatchMs: wallMs,
        phaseMs: { quiesce: 0, lockWait: 0, capture: 1, passes: perPassMs * passes, restores: 1, verify: 0 },
        snapshotMs: 2, bytesPerDispatch: { ...bytes, copied: bytes.deviceToDevice }, bytesModelPerDispatch: 64 * MiB * passes,
        bandwidth: { snapshotBytesPerSecond: bytes.deviceToDevice / 0.002, deviceToHostBytesPerSecond: null, hostToDeviceBytesPerSecond: null },
        replayed: 2, declined: 0, declineReasons: [],
      },
      memory: { rssBaselineBytes: 100 * MiB, rssPeakBytes: 200 * MiB, rssSamples: 10, stagingHostHighWaterBytes: 0 },
      background: null,
      ratios: { vsReference: null, vsCopyCeiling: null, ceilingEfficiency: null },
      notes: [],
      samples: [sample, { ...sample, index: 1 }],
    };
  };
  return {
    schema: 'kreplay-bench-report', version: 1, complete: true, createdAt: '2026-01-01T00:00:00.000Z', durationSeconds: 1,
    machine: { hostname: 'test', cpuModel: 'cpu', cores: 2, memoryBytes: 8 * 2 ** 30, os: { platform: 'linux', release: '6', arch: 'x64', version: '#1' } },
    driver: 'host',
    devices: [{ id: 0, driver: 'host', name: 'host agent 0', architecture: 'x86_64', deviceMemoryBytes: 2 ** 30, hostLink: null, memory: { freeBytes: 2 ** 30, totalBytes: 2 ** 30 } }],
    versions: { node: 'v20', addon: '0.1.0', driver: 'host', bench: '0.1.0' },
    gitCommit: null,
    configuration: {
      preset: 'custom', variants: ['reference', 'dirty-pages'], footprints: [64 * MiB], passes: [2, 5], dispatches: 4, writeFraction: 0.01, sweepPasses: 5,
      writeFractionSweep: { footprintBytes: 64 * MiB, values: [] }, dispatchSweep: { footprintBytes: 64 * MiB, values: [] }, streamSweep: { footprintBytes: 64 * MiB, values: [] },
      runSecondsLimit: 10, ceilingRepetitions: 1, ceilingBufferBytes: 64 * MiB, backgroundSoloSeconds: 1, rssSampleMilliseconds: 10,
    },
    baselines: { copyCeilings: [], checkpoint: { provider: 'none', available: false, reason: 'left out by the caller' } },
    rows: variants.flatMap((variant) => [2, 5].map((passes) => row(variant, passes))),
    fits: [],
    skipped: [],
    notes: [],
  };
}

describe('kreplay compare exit codes: 1 for a regression only, 2 for unusable input', () => {
  let directory: string;
  const file = async (name: string, content: unknown) => {
    const path = join(directory, name);
    await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const compare = async (...args: string[]) => {
    const io = recordingIo();
    const code = await runCli(['compare', ...args], io);
    return { code, out: io.out(), err: io.err() };
  };
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kreplay-compare-'));
  });

  it('exits 0 when nothing regressed and 1 when a metric regressed', async () => {
    const base = await file('base.json', report(2));
    expect(await compare(base, await file('same.json', report(2)))).toMatchObject({ code: 0, err: '' });
    const slower = await compare(base, await file('slower.json', report(4)));
    expect(slower.code).toBe(1);
    expect(slower.out).toMatch(/regressed/);
    expect(slower.err).toMatch(/^kreplay: \[cli\] \[compare\] \d+ metric\(s\) regressed by more than 10\.0%/);
  });

  it.each<[string, (base: string) => Promise<string[]>, RegExp]>([
    ['a missing file', async (base) => [base, join(directory, 'missing.json')], /missing\.json: no such file/],
    ['a file that is not JSON', async (base) => [base, await file('broken.json', '{"schema": "kreplay-bench-report",\n')], /broken\.json: is not JSON/],
    ['JSON that is not a bench report', async (base) => [await file('foreign.json', { name: 'package' }), base], /foreign\.json: is not a kreplay bench report/],
    [
      'a negative byte count',
      async (base) => {
        const negative = report(2);
        const rows = negative.rows.map((row, index) => (index === 1 ? { ...row, summary: { ...row.summary, bytesPerDispatch: { ...row.summary.bytesPerDispatch, copied: -1 } } } : row));
        return [base, await file('negative.json', { ...negative, rows })];
      },
      /negative\.json: is a malformed bench report: rows\[1\]\.summary\.bytesPerDispatch\.copied is negative \(-1\)/,
    ],
    [
      'a negative time',
      async (base) => {
        const negative = report(2);
        return [base, await file('negative-time.json', { ...negative, rows: [{ ...negative.rows[0]!, seconds: -3 }, ...negative.rows.slice(1)] })];
      },
      /negative-time\.json: .*rows\[0\]\.seconds is negative \(-3\)/,
    ],
    ['duplicate rows', async (base) => [base, await file('duplicate.json', { ...report(2), rows: [...report(2).rows, report(2).rows[0]!] })], /duplicate\.json: .*rows\[4\]\.key "reference\/64MiB\/p2\/d4\/w0\.01\/s1" repeats rows\[0\]/],
    ['an empty head report', async (base) => [base, await file('empty.json', { ...report(2), rows: [] })], /empty\.json: rows is empty, so the head report measured nothing/],
    ['an empty base report', async (base) => [await file('empty-base.json', { ...report(2), rows: [] }), base], /empty-base\.json: rows is empty, so the base report/],
    ['reports sharing no configuration', async (base) => [base, await file('other.json', report(2, ['write-set']))], /share no configuration/],
  ])('exits 2 for %s, naming the file and what is wrong in one line', async (_, paths, pattern) => {
    const base = await file('good-base.json', report(2));
    const result = await compare(...(await paths(base)));
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err.trim().split('\n')).toHaveLength(1);
    expect(result.err).toMatch(pattern);
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  it('refuses --html and --out without --by-device (exit 2) instead of ignoring them, writing nothing', async () => {
    const base = await file('base-options.json', report(2));
    for (const option of ['--html', '--out']) {
      const written = join(directory, `written${option}`);
      const result = await compare(base, base, option, written);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(new RegExp(`${option} only applies with --by-device`));
      expect(await readdir(directory)).not.toContain(`written${option}`);
    }
  });

  it('exits 2 for an unusable report with --by-device too', async () => {
    const base = await file('device-base.json', report(2));
    const result = await compare('--by-device', base, await file('device-negative.json', { ...report(2), durationSeconds: -1 }));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/device-negative\.json: is a malformed bench report: durationSeconds is negative/);
  });
});
