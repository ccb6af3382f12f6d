import { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { benchCommand } from './commands/bench-command.js';
import { calibrateCommand } from './commands/calibrate-command.js';
import { captureCommand } from './commands/capture-command.js';
import { compareCommand } from './commands/compare-command.js';
import { demoCommand } from './commands/demo-command.js';
import { infoCommand } from './commands/info-command.js';
import { overheadCommand } from './commands/overhead-command.js';
import { profileCommand } from './commands/profile-command.js';
import { replayCommand } from './commands/replay-command.js';
import { reportCommand } from './commands/report-command.js';
import { exitCodesHelp } from './exit-codes.js';
import { cliVersion } from './version.js';

/** Builds the `kreplay` command tree, writing through `io`; every `--help` ends with the exit codes. */
export function createProgram(io: CliIo): Command {
  const program = new Command('kreplay')
    .description('kernel replay for GPU profilers: restore only what a dispatch writes, and measure it')
    .version(cliVersion, '-v, --version')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .addHelpText('after', exitCodesHelp);
  for (const command of [infoCommand(io), demoCommand(io), captureCommand(io), replayCommand(io), profileCommand(io), calibrateCommand(io), overheadCommand(io), benchCommand(io), compareCommand(io), reportCommand(io)]) {
    program.addCommand(command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr }).addHelpText('after', exitCodesHelp));
  }
  return program;
}
