import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readdirSync, readFileSync, symlinkSync, truncateSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KreplayError } from '@kreplay/native';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { BenchReportError } from './bench-report-error.js';
import { benchReportJsonSchema, benchReportSchemaId } from './bench-report-json-schema.js';
import { parseBenchReport, readBenchReport } from './parse-bench-report.js';
import { writeBenchReport } from './write-report-files.js';

const oneLine = (error: unknown) => String((error as Error).message).split('\n').length === 1;

function rejection(text: string): BenchReportError {
  try {
    parseBenchReport(text, 'r.json');
  } catch (error) {
    expect(error).toBeInstanceOf(BenchReportError);
    expect(error).toBeInstanceOf(KreplayError);
    expect(oneLine(error)).toBe(true);
    return error as BenchReportError;
  }
  throw new Error('expected a BenchReportError');
}

describe('bench report files', () => {
  it('round-trips a report through JSON, file and parse unchanged', async () => {
    const report = syntheticReport();
    expect(parseBenchReport(JSON.stringify(report), 'r.json')).toEqual(report);
    const path = join(await mkdtemp(join(tmpdir(), 'kreplay-report-')), 'r.json');
    await writeBenchReport(path, report);
    expect(await readBenchReport(path)).toEqual(report);
  });

  it('rejects text that is not JSON, with the file name and one line', () => {
    const error = rejection('{"schema": "kreplay-bench-report",\n oops');
    expect(error.message).toMatch(/^\[bench\] \[report\] r\.json: is not JSON \(.+\)\. Pass a report written by kreplay bench --out\.$/);
    expect(error.file).toBe('r.json');
  });

  it('rejects foreign JSON and other versions', () => {
    expect(rejection('{"name": "package"}').message).toContain('is not a kreplay bench report (no schema field)');
    expect(rejection('[1, 2]').message).toContain('is not a kreplay bench report');
    expect(rejection('{"schema": "other-report"}').message).toContain('schema "other-report"');
    expect(rejection(JSON.stringify({ ...syntheticReport(), version: 2 })).message).toContain('version 2; this kreplay reads version 1');
  });

  it('rejects a report missing what a report holds, naming the field', () => {
    const report = syntheticReport();
    expect(rejection(JSON.stringify({ ...report, rows: undefined })).message).toContain('is a malformed bench report: rows is missing');
    const badRow = { ...report.rows[0], summary: { bytesPerDispatch: {} } };
    expect(rejection(JSON.stringify({ ...report, rows: [badRow] })).message).toContain('rows[0].summary.meanDispatchMs is missing');
    expect(rejection(JSON.stringify({ ...report, fits: [{ key: 'x' }] })).message).toMatch(/fits\[0\]\.\w+ is missing/);
    const wrongType = { ...report.rows[1]!, passes: 'five' };
    expect(rejection(JSON.stringify({ ...report, rows: [report.rows[0], wrongType] })).message).toContain('rows[1].passes is "five", not integer');
  });

  it('rejects negative byte counts and times, naming the field', () => {
    const report = syntheticReport();
    const [row] = report.rows;
    const negativeBytes = { ...row!, summary: { ...row!.summary, bytesPerDispatch: { ...row!.summary.bytesPerDispatch, copied: -5 } } };
    expect(rejection(JSON.stringify({ ...report, rows: [negativeBytes] })).message).toContain('rows[0].summary.bytesPerDispatch.copied is negative (-5)');
    const negativeTime = { ...row!, samples: [{ ...row!.samples[0]!, passMs: [1, -0.5] }] };
    expect(rejection(JSON.stringify({ ...report, rows: [negativeTime] })).message).toContain('rows[0].samples[0].passMs[1] is negative (-0.5)');
    expect(rejection(JSON.stringify({ ...report, durationSeconds: -1 })).message).toContain('durationSeconds is negative (-1)');
    // A fitted coefficient may come out negative; that is data, not a malformed report.
    const fits = report.fits.map((fit) => ({ ...fit, perPassMs: -0.25 }));
    expect(parseBenchReport(JSON.stringify({ ...report, fits }), 'r.json').fits[0]!.perPassMs).toBe(-0.25);
  });

  it('rejects two rows (or two fits) of one configuration', () => {
    const report = syntheticReport();
    const rows = [...report.rows, report.rows[1]!];
    expect(rejection(JSON.stringify({ ...report, rows })).message).toContain(`rows[${report.rows.length}].key "${report.rows[1]!.key}" repeats rows[1]`);
    const fits = [report.fits[0]!, report.fits[0]!];
    expect(rejection(JSON.stringify({ ...report, fits })).message).toContain('fits[1].key');
  });

  it('publishes its JSON Schema as a file equal to the object it validates with, and reports reference it', () => {
    const file = JSON.parse(readFileSync(new URL('../../schema/bench-report.schema.json', import.meta.url), 'utf8')) as unknown;
    // If this fails after a change to the schema object: pnpm --filter @kreplay/bench build && node scripts/write-report-schema.mjs
    expect(file).toEqual(JSON.parse(JSON.stringify(benchReportJsonSchema)));
    expect(benchReportJsonSchema.$id).toBe(benchReportSchemaId);
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(manifest.files).toContain('schema');
    expect(manifest.exports['./schema/bench-report.schema.json']).toBe('./schema/bench-report.schema.json');
    expect(syntheticReport().$schema).toBe(benchReportSchemaId);
    const { $schema: _, ...older } = syntheticReport();
    expect(parseBenchReport(JSON.stringify(older), 'older.json').schema).toBe('kreplay-bench-report');
  });

  it('reads every bench report among the examples; refuses the other JSON there as foreign', () => {
    const examples = new URL('../../examples/', import.meta.url);
    const files = readdirSync(examples).filter((name) => name.endsWith('.json'));
    let reports = 0;
    for (const name of files) {
      const text = readFileSync(new URL(name, examples), 'utf8');
      const value = JSON.parse(text) as { schema?: unknown };
      if (value.schema === 'kreplay-bench-report') {
        expect(parseBenchReport(text, name).rows.length).toBeGreaterThan(0);
        reports += 1;
      } else {
        expect(() => parseBenchReport(text, name)).toThrow(/is not a kreplay bench report/);
      }
    }
    expect(reports).toBeGreaterThan(0);
  });

  it('names a missing file', async () => {
    await expect(readBenchReport('/nonexistent/r.json')).rejects.toThrow('[bench] [report] /nonexistent/r.json: no such file. Check the path of the report.');
  });
});

describe('bench report files that would hurt the reader', () => {
  const deep = (depth: number) => `{"schema":${'['.repeat(depth)}${']'.repeat(depth)}}`;

  it('refuses JSON nested deeper than a report goes before parsing it (no stack overflow)', async () => {
    const error = rejection(deep(20_000));
    expect(error.message).toBe('[bench] [report] r.json: nests arrays and objects deeper than the 32 levels a report has (at character 41). Pass a report written by kreplay bench --out.');
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-report-deep-'));
    await writeFile(join(directory, 'deep.json'), deep(20_000));
    await expect(readBenchReport(join(directory, 'deep.json'))).rejects.toThrow(/deep\.json: nests arrays and objects deeper than the 32 levels/);
  });

  it('refuses a FIFO, a device, a directory and a file too large without reading them; follows a link to a report', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-report-files-'));
    const fifo = join(directory, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    symlinkSync('/dev/zero', join(directory, 'zero.json'));
    await writeFile(join(directory, 'huge.json'), '');
    truncateSync(join(directory, 'huge.json'), 2 ** 33);
    await writeBenchReport(join(directory, 'report.json'), syntheticReport());
    symlinkSync(join(directory, 'report.json'), join(directory, 'latest.json'));
    try {
      const cases: [string, RegExp][] = [
        ['fifo.json', /fifo\.json: is a FIFO, not a regular file\. Check the path of the report\./],
        ['zero.json', /zero\.json: is a character device, not a regular file\./],
        ['huge.json', /huge\.json: is 8589934592 bytes, more than the \d+ this reader takes\./],
        ['.', /is a directory, not a regular file\./],
      ];
      for (const [name, message] of cases) {
        const settled = await Promise.race([readBenchReport(join(directory, name)).then(() => null, (error: unknown) => error), new Promise((resolve) => setTimeout(resolve, 10_000, 'blocked'))]);
        expect(settled, name).toBeInstanceOf(BenchReportError);
        expect((settled as Error).message, name).toMatch(message);
      }
      expect((await readBenchReport(join(directory, 'latest.json'))).rows).toEqual(syntheticReport().rows);
    } finally {
      // Releases a reader that regressed and blocks on opening the FIFO.
      closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    }
  }, 30_000);
});

