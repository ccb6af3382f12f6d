import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** How a program ran by {@link runProgram} ended. */
export interface ProgramExit {
  /** Its exit code; null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it, e.g. `SIGSEGV`; null when it exited. */
  readonly signal: NodeJS.Signals | null;
  /** The code a shell would report: the exit code, or 128 + the signal's number. */
  readonly shellCode: number;
}

/**
 * Runs `command` (argv) with `environment`, its stdin, stdout and stderr those of this process, and
 * waits for it. While it runs, Ctrl-C is left to the program (the terminal sends it to both) and a
 * SIGTERM sent to this process is passed on to it.
 * @returns how it ended.
 * @throws the spawn error (e.g. ENOENT) when it cannot be started.
 */
export function runProgram(command: readonly string[], environment: NodeJS.ProcessEnv): Promise<ProgramExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env: environment });
    const ignoreInterrupt = () => {};
    const passTerminate = () => void child.kill('SIGTERM');
    process.on('SIGINT', ignoreInterrupt);
    process.on('SIGTERM', passTerminate);
    const stopListening = () => {
      process.off('SIGINT', ignoreInterrupt);
      process.off('SIGTERM', passTerminate);
    };
    child.once('error', (error) => {
      stopListening();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      stopListening();
      const shellCode = code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0));
      resolve({ code, signal, shellCode });
    });
  });
}
