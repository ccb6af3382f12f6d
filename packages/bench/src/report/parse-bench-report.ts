import { BenchReportError } from './bench-report-error.js';
import { benchReportSchema, benchReportVersion } from './bench-report.js';
import type { BenchReport } from './bench-report.js';
import { describeSchemaField, isJsonObject, parseJsonText } from './parse-json-text.js';
import { readReportText } from './read-report-text.js';
import { benchReportProblem } from './validate-bench-report.js';

/**
 * Parses and checks the text of a bench report against its JSON Schema
 * ({@link benchReportJsonSchema}); `source` names it in errors (a file path).
 * @throws BenchReportError when the text is not JSON (or nests deeper than a report), not a kreplay bench report, of another
 * version, not valid against the schema (naming the field: missing, of the wrong type, negative),
 * or when two rows or two fits share a configuration key.
 */
export function parseBenchReport(text: string, source: string): BenchReport {
  const value = parseJsonText(text, (what, cause) => new BenchReportError(source, what, 'Pass a report written by kreplay bench --out', cause));
  return benchReportFromJson(value, source);
}

/**
 * {@link parseBenchReport} of a value already parsed from JSON.
 * @throws BenchReportError as parseBenchReport does, for all but JSON syntax.
 * @internal
 */
export function benchReportFromJson(value: unknown, source: string): BenchReport {
  if (!isJsonObject(value) || value.schema !== benchReportSchema) {
    throw new BenchReportError(source, `is not a kreplay bench report (${describeSchemaField(value)})`, 'Pass a report written by kreplay bench --out');
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
  const text = await readReportText(path, (what, cause) => new BenchReportError(path, what, 'Check the path of the report', cause));
  return parseBenchReport(text, path);
}
