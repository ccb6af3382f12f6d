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
