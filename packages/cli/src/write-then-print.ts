import type { CliIo } from './cli-io.js';

/**
 * Writes a command's files, then prints its results on stdout: a reader of stdout that goes away
 * (`| head`) cannot keep the files from being written, and when a file cannot be written the
 * results are still printed, then the error is thrown.
 * @throws the error of `write`, after printing.
 */
export async function writeThenPrint(io: CliIo, write: () => Promise<void>, results: string): Promise<void> {
  const failure = await write().then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  io.stdout(results);
  if (failure !== undefined) throw failure.error;
}
