import { readRegularFile } from '@kreplay/native';

/** The largest report file read (those written so far are a few MB). */
const MAXIMUM_REPORT_BYTES = 256 * 2 ** 20;

/**
 * The text of a report file, or what is wrong with the path: `no such file`, a directory, a FIFO or
 * a device (never read: a FIFO would block), a file over 256 MiB; `fail` turns that into the
 * reader's own error. A symbolic link is followed (a `latest.json` link is a report).
 * @throws what `fail` returns, when the file cannot be read.
 */
export async function readReportText(path: string, fail: (what: string, cause: unknown) => Error): Promise<string> {
  const read = await readRegularFile(path, { maxBytes: MAXIMUM_REPORT_BYTES, followSymlinks: true });
  if ('problem' in read) throw fail(read.reason === 'missing' ? 'no such file' : read.problem, undefined);
  return read.bytes.toString('utf8');
}
