import { CommanderError } from 'commander';
import { ArgumentError, KreplayError } from '@kreplay/native';
import { processIo } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { InterruptedError } from './interrupted-error.js';
import { ProgramExitError } from './program-exit-error.js';
import { createProgram } from './program.js';
import { UsageError } from './usage-error.js';

/**
 * Runs the kreplay CLI on `args` (without `node` and the script) and returns the exit code:
 * 0 on success, 1 when the work failed (or compare found a regression), 2 for a usage or input error
 * (a bad option, an option value a library refused with an ArgumentError, an unusable input file or
 * an output path that cannot be written; nothing was measured), 130 when Ctrl-C (143 when SIGTERM)
 * interrupted long work after it wrote what it kept, and for `capture` the captured program's own
 * code when it failed. Failures are one line on stderr; a closed stdout (`| head`) changes nothing
 * but what is printed.
 */
export async function runCli(args: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    const message = error instanceof KreplayError ? error.message : describeUnexpected(error);
    io.stderr(`kreplay: ${message.split('\n')[0]}\n`);
    if (error instanceof InterruptedError) return error.exitCode;
    if (error instanceof ProgramExitError) return error.exitCode;
    return error instanceof UsageError || error instanceof ArgumentError ? exitCodes.usage : exitCodes.failed;
  }
}

function describeUnexpected(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
