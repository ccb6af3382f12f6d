/** Where the CLI writes; tests pass their own to capture output. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when progress may be drawn (stderr is a terminal). */
  readonly interactive: boolean;
}

/** The process's own streams. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  interactive: Boolean(process.stderr.isTTY),
};
