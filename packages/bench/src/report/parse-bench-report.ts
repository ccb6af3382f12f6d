import { readFile } from 'node:fs/promises';
import { BenchReportError } from './bench-report-error.js';
import { benchReportSchema, benchReportVersion } from './bench-report.js';
import type { BenchReport } from './bench-report.js';
import { benchReportProblem } from './validate-bench-report.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses and checks the text of a bench report against its JSON Schema
 * ({@link benchReportJsonSchema}); `source` names it in errors (a file path).
 * @throws BenchReportError when the text is not JSON, not a kreplay bench report, of another
 * version, not valid against the schema (naming the field: missing, of the wrong type, negative),
 * or when two rows or two fits share a configuration key.
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
  const problem = benchReportProblem(value);
  if (problem !== null) throw new BenchReportError(source, `is a malformed bench report: ${problem}`, 'Pass a report written by kreplay bench --out, unchanged');
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
