import { renderHtmlReport } from '../html/render-html-report.js';
import { BenchReportError } from './bench-report-error.js';
import type { BenchReport } from './bench-report.js';
import { writeFileAtomic, writeFileAtomicSync } from './write-file-atomic.js';

function cannotBeWritten(path: string, error: unknown): BenchReportError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new BenchReportError(path, `cannot be written (${code})`, 'Choose a path in a writable directory', error);
}

/**
 * Writes a report file (JSON, HTML) atomically: `path` holds either what it held before or the whole
 * new text, even when the process is interrupted while writing.
 * @throws BenchReportError when the file cannot be written (naming the path and the system's code).
 */
export async function writeReportFile(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text);
  } catch (error) {
    throw cannotBeWritten(path, error);
  }
}

/**
 * {@link writeReportFile}, synchronously: for a process that must save a report and exit at once.
 * @throws BenchReportError when the file cannot be written (naming the path and the system's code).
 */
export function writeReportFileSync(path: string, text: string): void {
  try {
    writeFileAtomicSync(path, text);
  } catch (error) {
    throw cannotBeWritten(path, error);
  }
}

/**
 * Writes a report as JSON (every sample included), atomically.
 * @throws BenchReportError when the file cannot be written.
 */
export function writeBenchReport(path: string, report: BenchReport): Promise<void> {
  return writeReportFile(path, `${JSON.stringify(report)}\n`);
}

/**
 * {@link writeBenchReport}, synchronously: for a process that must save what it measured and exit
 * at once (a second Ctrl-C).
 * @throws BenchReportError when the file cannot be written.
 */
export function writeBenchReportSync(path: string, report: BenchReport): void {
  writeReportFileSync(path, `${JSON.stringify(report)}\n`);
}

/**
 * Writes a report as one self-contained HTML page with charts, atomically.
 * @throws BenchReportError when the file cannot be written.
 */
export function writeHtmlReport(path: string, report: BenchReport): Promise<void> {
  return writeReportFile(path, renderHtmlReport(report));
}
