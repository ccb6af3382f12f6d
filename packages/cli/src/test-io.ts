import type { CliIo } from './cli-io.js';

/** A CliIo that records what the CLI wrote, for tests. */
export function recordingIo(): CliIo & { readonly out: () => string; readonly err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    interactive: false,
    out: () => out,
    err: () => err,
  };
}
