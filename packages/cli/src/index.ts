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
