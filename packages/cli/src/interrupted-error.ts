import { KreplayError } from '@kreplay/native';
import { describeStop, stopExitCode } from './stop-signal.js';
import type { StopSignal } from './stop-signal.js';

/**
 * Long work stopped by Ctrl-C (SIGINT) or SIGTERM after it kept what it had (e.g. bench's partial
 * report): the CLI prints its message and exits with 130 (SIGINT) or 143 (SIGTERM), as a shell does
 * for a process ended by that signal.
 * Its message reads `[cli] [<command>] interrupted: what was kept. how to finish.` (`terminated:` for SIGTERM).
 */
export class InterruptedError extends KreplayError {
  override name = 'InterruptedError';
  /** The command interrupted, e.g. `bench`. */
  readonly command: string;
  /** The signal that stopped it. */
  readonly signal: StopSignal;
  /** The code the CLI exits with: 130 for SIGINT, 143 for SIGTERM. */
  readonly exitCode: number;

  /** `what` and `fix` are sentences without their final period. */
  constructor(command: string, what: string, fix: string, signal: StopSignal = 'SIGINT') {
    super({ packageName: 'cli', component: command, message: `[cli] [${command}] ${describeStop(signal)}: ${what}. ${fix}.` });
    this.command = command;
    this.signal = signal;
    this.exitCode = stopExitCode(signal);
  }
}
