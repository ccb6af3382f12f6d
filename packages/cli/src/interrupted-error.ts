import { KreplayError } from '@kreplay/native';

/**
 * Long work stopped by Ctrl-C (SIGINT) after it kept what it had (e.g. bench's partial report): the
 * CLI prints its message and exits with 130, as a shell does for a process ended by SIGINT.
 * Its message reads `[cli] [<command>] interrupted: what was kept. how to finish.`
 */
export class InterruptedError extends KreplayError {
  override name = 'InterruptedError';
  /** The command interrupted, e.g. `bench`. */
  readonly command: string;

  /** `what` and `fix` are sentences without their final period. */
  constructor(command: string, what: string, fix: string) {
    super({ packageName: 'cli', component: command, message: `[cli] [${command}] interrupted: ${what}. ${fix}.` });
    this.command = command;
  }
}
