import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { writeReportFile } from '@kreplay/bench';
import type { CliIo } from './cli-io.js';
import { checkOutputPaths } from './output-path.js';
import { UsageError } from './usage-error.js';
import { writeThenPrint } from './write-then-print.js';

/** `-o FILE` and `-f`: where a command writes its JSON report, and whether it may replace a file there. */
export interface JsonOutputOptions {
  readonly out?: string;
  readonly forceOverwrite?: boolean;
}

/** Adds `-o, --out <file>` and `-f, --force-overwrite` (ncu's convention: an existing file is kept unless -f). */
export function withJsonOutput(command: Command): Command {
  return command
    .option('-o, --out <file>', 'also write the report as JSON to this file (an existing one only with -f)')
    .option('-f, --force-overwrite', 'let -o replace an existing file, as ncu does');
}

/**
 * Checks, before any work, that `-o` can be written: not one of `inputs`, writable, and (as ncu
 * refuses) not an existing file unless `-f` was given.
 * @throws UsageError naming the file and the flag.
 */
export async function checkJsonOutput(command: string, options: JsonOutputOptions, inputs: Readonly<Record<string, string | readonly string[] | undefined>> = {}): Promise<void> {
  if (options.out === undefined) {
    if (options.forceOverwrite) throw new UsageError(command, '-f (--force-overwrite) lets -o replace an existing file, and there is no -o', 'Pass -o FILE, or leave out -f');
    return;
  }
  await checkOutputPaths(command, { '--out': options.out }, inputs);
  if (!options.forceOverwrite && existsSync(options.out)) {
    throw new UsageError(command, `-o ${options.out} exists, and is kept unless -f (--force-overwrite) is given`, 'Pass -f to replace it, or choose another file');
  }
}

/** Writes `report` as JSON to `-o` when given (atomically), then prints `printed`; see writeThenPrint. */
export async function writeJsonThenPrint(io: CliIo, options: JsonOutputOptions, report: unknown, printed: string): Promise<void> {
  const out = options.out;
  await writeThenPrint(io, async () => (out === undefined ? undefined : writeReportFile(out, `${JSON.stringify(report)}\n`)), printed);
}
