import type { CliIo } from './cli-io.js';

/**
 * A CliIo that records what the CLI wrote, for tests; `options` may give it a clock and a progress
 * interval. Without an interval it prints no progress lines, so what a test sees does not depend
 * on how fast the machine runs.
 */
export function recordingIo(options: Partial<Pick<CliIo, 'interactive' | 'now' | 'progressIntervalMs'>> = {}): CliIo & { readonly out: () => string; readonly err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    interactive: false,
    progressIntervalMs: Number.POSITIVE_INFINITY,
    ...options,
    out: () => out,
    err: () => err,
  };
}

/**
 * A recording io for interrupting long work in-process: its clock moves 6 s at every reading, so
 * every progress update is a line, and it emits SIGINT once, at the first stderr text matching `when`.
 */
export function interruptingIo(when: RegExp): CliIo & { readonly out: () => string; readonly err: () => string; readonly interrupted: () => boolean } {
  let time = 0;
  let interrupted = false;
  const recording = recordingIo({ now: () => (time += 6000), progressIntervalMs: 5000 });
  return {
    ...recording,
    stderr: (text) => {
      recording.stderr(text);
      if (interrupted || !when.test(text)) return;
      interrupted = true;
      process.emit('SIGINT');
    },
    interrupted: () => interrupted,
  };
}
