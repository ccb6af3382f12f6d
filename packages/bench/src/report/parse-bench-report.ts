import { readFile } from 'node:fs/promises';
import { BenchReportError } from './bench-report-error.js';
import { benchReportSchema, benchReportVersion } from './bench-report.js';
import type { BenchReport } from './bench-report.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each check: a path into the report, and whether the value there is well-formed. */
const rowChecks: ReadonlyArray<readonly [string, (row: Record<string, unknown>) => boolean]> = [
  ['key', (row) => typeof row.key === 'string'],
  ['variant', (row) => typeof row.variant === 'string'],
  ['passes', (row) => typeof row.passes === 'number'],
  ['footprintBytes', (row) => typeof row.footprintBytes === 'number'],
  ['summary.meanDispatchMs', (row) => isObject(row.summary) && typeof row.summary.meanDispatchMs === 'number'],
  ['summary.bytesPerDispatch', (row) => isObject(row.summary) && isObject(row.summary.bytesPerDispatch)],
  ['samples', (row) => Array.isArray(row.samples)],
];

/**
 * Parses and checks the text of a bench report. `source` names it in errors (a file path).
 * @throws BenchReportError when the text is not JSON, not a kreplay bench report, of another
 * version, or missing what a report holds.
 */
export function parseBenchReport(text: string, source: string): BenchReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BenchReportError(source, `is not JSON (${(error as Error).message.replace(/\s+/g, ' ')})`, 'Pass a report written by kreplay bench --out', error);
  }
  if (!isObject(value) || value.schema !== benchReportSchema) {
    const schema = isObject(value) && 'schema' in value ? `schema ${JSON.stringify(value.schema)}` : 'no schema field';
    throw new BenchReportError(source, `is not a kreplay bench report (${schema})`, 'Pass a report written by kreplay bench --out');
  }
  if (value.version !== benchReportVersion) {
    throw new BenchReportError(source, `is a bench report of version ${JSON.stringify(value.version)}; this kreplay reads version ${benchReportVersion}`, 'Use the kreplay version that wrote it, or run the benchmark again');
  }
  const missing = (path: string) => new BenchReportError(source, `is a malformed bench report: ${path} is missing or of the wrong type`, 'Run the benchmark again to write a whole report');
  for (const field of ['rows', 'fits', 'skipped', 'notes', 'devices'] as const) if (!Array.isArray(value[field])) throw missing(field);
  for (const field of ['machine', 'configuration', 'baselines', 'versions'] as const) if (!isObject(value[field])) throw missing(field);
  if (typeof value.complete !== 'boolean') throw missing('complete');
  if (!isObject(value.baselines) || !Array.isArray(value.baselines.copyCeilings)) throw missing('baselines.copyCeilings');
  for (const [index, row] of (value.rows as unknown[]).entries()) {
    if (!isObject(row)) throw missing(`rows[${index}]`);
    const failed = rowChecks.find(([, check]) => !check(row));
    if (failed) throw missing(`rows[${index}].${failed[0]}`);
  }
  for (const [index, fit] of (value.fits as unknown[]).entries()) {
    if (!isObject(fit) || typeof fit.key !== 'string' || typeof fit.perPassMs !== 'number' || typeof fit.fixedMs !== 'number') throw missing(`fits[${index}]`);
  }
  return value as unknown as BenchReport;
}

/**
 * Reads and checks a bench report file.
 * @throws BenchReportError when the file cannot be read or is not a bench report of this version.
 */
export async function readBenchReport(path: string): Promise<BenchReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? (error as Error).message})`;
    throw new BenchReportError(path, what, 'Check the path of the report', error);
  }
  return parseBenchReport(text, path);
}
