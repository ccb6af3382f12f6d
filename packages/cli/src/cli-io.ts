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
}

/** The process's own streams. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  interactive: Boolean(process.stderr.isTTY),
};
