import { KreplayError } from '@kreplay/native';

/**
 * A command given what it cannot use (a bad option, an option without the one it needs, an output
 * path that cannot be written): nothing was measured, and the CLI exits with 2.
 * Its message reads `[cli] [<command>] what. fix.`
 */
export class UsageError extends KreplayError {
  override name = 'UsageError';
  /** The command at fault, e.g. `bench`. */
  readonly command: string;

  /** `what` and `fix` are sentences without their final period. */
  constructor(command: string, what: string, fix: string, cause?: unknown) {
    super({ packageName: 'cli', component: command, message: `[cli] [${command}] ${what}. ${fix}.`, cause });
    this.command = command;
  }
}
