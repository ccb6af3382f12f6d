import { CommanderError } from 'commander';
import { ArgumentError, KreplayError } from '@kreplay/native';
import { processIo } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { createProgram } from './program.js';
import { UsageError } from './usage-error.js';

/**
 * Runs the kreplay CLI on `args` (without `node` and the script) and returns the exit code:
 * 0 on success, 1 when the work failed, 2 for a usage error (a bad option, an option value a library
 * refused with an ArgumentError, or an output path that cannot be written; nothing was measured).
 * Failures are one line on stderr.
 */
export async function runCli(args: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    const message = error instanceof KreplayError ? error.message : describeUnexpected(error);
    io.stderr(`kreplay: ${message.split('\n')[0]}\n`);
    return error instanceof UsageError || error instanceof ArgumentError ? 2 : 1;
  }
}

function describeUnexpected(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
