/**
 * @kreplay/cli — the `kreplay` command. The command tree is exported for embedding and tests.
 */
export { runCli } from './run-cli.js';
export { createProgram } from './program.js';
export type { CliIo } from './cli-io.js';
export { processIo } from './cli-io.js';
export { parseByteSize, parsePositiveInteger } from './byte-size.js';
export { cliVersion } from './version.js';
export { UsageError } from './usage-error.js';
export { InterruptedError } from './interrupted-error.js';
export { exitCodes } from './exit-codes.js';
export { createProgress } from './progress.js';
export type { Progress, ProgressOptions } from './progress.js';
