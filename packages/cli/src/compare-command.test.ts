import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { benchComparisonJsonSchema, deviceComparisonJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { runCli } from './run-cli.js';
import { smallBenchReport as report } from './test-bench-report.js';
import { recordingIo } from './test-io.js';

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

  it('prints a comparison of two bench reports with --json as one document of its schema', async () => {
    const base = await file('json-base.json', report(2));
    const slower = await compare(base, await file('json-slower.json', report(4)), '--json');
    expect(slower.code).toBe(1);
    const printed = JSON.parse(slower.out) as unknown;
    expect(printed).toMatchObject({ schema: 'urn:kreplay:schema:bench-comparison:1', schemaVersion: 1, threshold: 0.1, regressions: expect.arrayContaining([expect.objectContaining({ regressed: true })]) });
    expect(jsonSchemaProblem(benchComparisonJsonSchema, printed)).toBeNull();
  });

  it('writes and prints a by-device comparison as one document of its schema', async () => {
    const out = join(directory, 'by-device.json');
    const fit = { key: 'dirty-pages/64MiB/d4/w0.01/s1', variant: 'dirty-pages', footprintBytes: 64 * 2 ** 20, dispatches: 4, writeFraction: 0.01, streams: 1, passes: [2, 5], fixedMs: 1, perPassMs: 2, fixedStandardErrorMs: 0, perPassStandardErrorMs: null, rSquared: 1, points: 2 };
    const [a, b] = [await file('device-a.json', { ...report(2), fits: [fit] }), await file('device-b.json', { ...report(4), fits: [{ ...fit, perPassMs: 3 }] })];
    const merged = await compare('--by-device', a, b, '-o', out, '--json');
    expect(merged).toMatchObject({ code: 0, err: '' });
    const [printed, written] = [JSON.parse(merged.out) as unknown, JSON.parse(await readFile(out, 'utf8')) as unknown];
    expect(written).toEqual(printed);
    expect(printed).toMatchObject({ schema: 'urn:kreplay:schema:device-comparison:1', schemaVersion: 1, complete: true, rows: [{ key: fit.key, cells: [{ perPassMs: 2.5 }] }] });
    expect(jsonSchemaProblem(deviceComparisonJsonSchema, printed)).toBeNull();
  });

  it.each<[string, (base: string) => Promise<string[]>, RegExp]>([
    ['a missing file', async (base) => [base, join(directory, 'missing.json')], /missing\.json: no such file/],
    ['a file that is not JSON', async (base) => [base, await file('broken.json', '{"schema": "kreplay-bench-report",\n')], /broken\.json: is not JSON/],
    ['JSON that is not a bench report', async (base) => [await file('foreign.json', { name: 'package' }), base], /foreign\.json: is neither a kreplay bench report nor a kreplay profile/],
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
