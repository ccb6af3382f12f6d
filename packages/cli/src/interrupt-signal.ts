import type { CliIo } from './cli-io.js';

/** An abort signal raised by the first Ctrl-C; the second one exits at once. */
export interface Interruption extends Disposable {
  readonly signal: AbortSignal;
}

/**
 * Turns SIGINT into an abort signal while long work runs, so the work can stop between steps and
 * keep what it measured. A second SIGINT exits with 130 without waiting. Dispose to stop listening.
 */
export function listenForInterrupt(io: CliIo, what: string): Interruption {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    io.stderr(`\nkreplay: interrupted; ${what} (Ctrl-C again to quit now)\n`);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  return { signal: controller.signal, [Symbol.dispose]: () => void process.off('SIGINT', onInterrupt) };
}
