import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KreplayError } from '@kreplay/native';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { BenchReportError } from './bench-report-error.js';
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

  it('rejects a report missing what a report holds, naming the path', () => {
    const report = syntheticReport();
    expect(rejection(JSON.stringify({ ...report, rows: undefined })).message).toContain('rows is missing');
    const badRow = { ...report.rows[0], summary: { bytesPerDispatch: {} } };
    expect(rejection(JSON.stringify({ ...report, rows: [badRow] })).message).toContain('rows[0].summary.meanDispatchMs');
    expect(rejection(JSON.stringify({ ...report, fits: [{ key: 'x' }] })).message).toContain('fits[0]');
  });

  it('names a missing file', async () => {
    await expect(readBenchReport('/nonexistent/r.json')).rejects.toThrow('[bench] [report] /nonexistent/r.json: no such file. Check the path of the report.');
  });
});
