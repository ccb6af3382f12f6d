import { readFile } from 'node:fs/promises';

/**
 * The text of a report file, or what is wrong with the path: `no such file`, `is a directory`,
 * `cannot be read (EACCES)`; `fail` turns that into the reader's own error.
 * @throws what `fail` returns, when the file cannot be read.
 */
export async function readReportText(path: string, fail: (what: string, cause: unknown) => Error): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? (error as Error).message})`;
    throw fail(what, error);
  }
}
