import { closableOutput } from './closable-output.js';

/** Where the CLI writes; tests pass their own to capture output. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when progress may be drawn as a redrawn bar (stderr is a terminal); else it is printed as lines. */
  readonly interactive: boolean;
  /** The clock progress reads, in milliseconds (default `performance.now`); tests move a fake one. */
  readonly now?: () => number;
  /** Milliseconds between two progress lines when stderr is not a terminal (default 5000). */
  readonly progressIntervalMs?: number;
  /**
   * Aborted when the reader of stdout went away (a closed pipe, `| head`): what is printed after is
   * dropped, and a command that prints as it goes may stop. Files are written before results are
   * printed, so nothing is lost.
   */
  readonly stdoutClosed?: AbortSignal;
}

const processStdout = closableOutput(process.stdout);
const processStderr = closableOutput(process.stderr);

/** The process's own streams; a closed stdout or stderr drops what is written to it. */
export const processIo: CliIo = {
  stdout: processStdout.write,
  stderr: processStderr.write,
  interactive: Boolean(process.stderr.isTTY),
  stdoutClosed: processStdout.closed,
};
