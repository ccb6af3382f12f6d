import { writeFile } from 'node:fs/promises';
import { renderHtmlReport } from '../html/render-html-report.js';
import { BenchReportError } from './bench-report-error.js';
import type { BenchReport } from './bench-report.js';

async function write(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new BenchReportError(path, `cannot be written (${code})`, 'Choose a path in a writable directory', error);
  }
}

/**
 * Writes a report as JSON (every sample included).
 * @throws BenchReportError when the file cannot be written.
 */
export function writeBenchReport(path: string, report: BenchReport): Promise<void> {
  return write(path, `${JSON.stringify(report)}\n`);
}

/**
 * Writes a report as one self-contained HTML page with charts.
 * @throws BenchReportError when the file cannot be written.
 */
export function writeHtmlReport(path: string, report: BenchReport): Promise<void> {
  return write(path, renderHtmlReport(report));
}
