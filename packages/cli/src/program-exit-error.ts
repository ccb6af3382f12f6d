import { KreplayError } from '@kreplay/native';

/**
 * A program that `kreplay capture` ran ended with a failure (a non-zero exit, a signal): the CLI
 * prints its message and exits with the program's code, so a script sees what the program did.
 * Its message reads `[cli] [<command>] what. what was kept.`
 */
export class ProgramExitError extends KreplayError {
  override name = 'ProgramExitError';
  readonly command: string;
  /** The code the CLI exits with: the program's exit code, or 128 + the signal's number. */
  readonly exitCode: number;

  /** `what` and `kept` are sentences without their final period. */
  constructor(command: string, exitCode: number, what: string, kept: string) {
    super({ packageName: 'cli', component: command, message: `[cli] [${command}] ${what}. ${kept}.` });
    this.command = command;
    this.exitCode = exitCode;
  }
}
