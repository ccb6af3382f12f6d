import { jsonNestingBeyond, readRegularFile } from '@kreplay/native';
import { BenchReportError } from './bench-report-error.js';
import { benchReportSchema, benchReportVersion } from './bench-report.js';
import type { BenchReport } from './bench-report.js';
import { benchReportProblem } from './validate-bench-report.js';

/**
 * Levels of nested arrays and objects a report may have (the reports written so far have 7);
 * deeper text is refused before it is parsed.
 */
const MAXIMUM_REPORT_DEPTH = 32;
/** The largest report file read (those written so far are a few MB). */
const MAXIMUM_REPORT_BYTES = 256 * 2 ** 20;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses and checks the text of a bench report against its JSON Schema
 * ({@link benchReportJsonSchema}); `source` names it in errors (a file path).
 * @throws BenchReportError when the text is not JSON (or nests deeper than a report), not a kreplay bench report, of another
 * version, not valid against the schema (naming the field: missing, of the wrong type, negative),
 * or when two rows or two fits share a configuration key.
 */
export function parseBenchReport(text: string, source: string): BenchReport {
  const deep = jsonNestingBeyond(text, MAXIMUM_REPORT_DEPTH);
  if (deep !== null) {
    throw new BenchReportError(source, `nests arrays and objects deeper than the ${MAXIMUM_REPORT_DEPTH} levels a bench report has (at character ${deep})`, 'Pass a report written by kreplay bench --out');
  }
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
  const problem = benchReportProblem(value);
  if (problem !== null) throw new BenchReportError(source, `is a malformed bench report: ${problem}`, 'Pass a report written by kreplay bench --out, unchanged');
  return value as unknown as BenchReport;
}

/**
 * Reads and checks a bench report file: a regular file (a link to one is followed) of at most
 * 256 MiB; a FIFO, a device or a directory is refused without reading it.
 * @throws BenchReportError when the file cannot be read or is not a bench report of this version.
 */
export async function readBenchReport(path: string): Promise<BenchReport> {
  const read = await readRegularFile(path, { maxBytes: MAXIMUM_REPORT_BYTES, followSymlinks: true });
  if ('problem' in read) throw new BenchReportError(path, read.reason === 'missing' ? 'no such file' : read.problem, 'Check the path of the report');
  return parseBenchReport(read.bytes.toString('utf8'), path);
}
