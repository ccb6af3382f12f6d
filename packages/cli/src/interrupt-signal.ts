import type { CliIo } from './cli-io.js';
import { describeStop, stopExitCode, stopSignals } from './stop-signal.js';
import type { StopSignal } from './stop-signal.js';

/**
 * A signal this soon after the first one is the same request, not a second one: `timeout` (and a
 * terminal's Ctrl-C when the process group holds more than one process) signals the process and its
 * group, so one request can arrive twice at once.
 */
export const sameRequestMilliseconds = 1000;

/** An abort signal raised by the first SIGINT or SIGTERM; a later one quits at once. */
export interface Interruption extends Disposable {
  /** Aborted by the first SIGINT or SIGTERM; its reason is the signal's name. */
  readonly signal: AbortSignal;
  /** The signal that aborted {@link signal}; undefined while none came. */
  readonly received: StopSignal | undefined;
}

/** What {@link listenForInterrupt} does when a later signal quits at once. */
export interface InterruptOptions {
  /**
   * Writes what was measured so far, synchronously (the process exits right after); it may print
   * one line saying what it wrote. A failure is reported in one line, and the process exits anyway.
   */
  readonly saveNow?: () => void;
}

/**
 * Turns SIGINT and SIGTERM into an abort signal while long work runs, so the work can stop between
 * steps and keep what it measured. A signal within {@link sameRequestMilliseconds} of the first is
 * taken as the same request; a later one quits at once: `options.saveNow` writes what was measured,
 * then the process exits with 130 (SIGINT first) or 143 (SIGTERM first). The time is read from
 * `io.now` (default `performance.now`). Dispose to stop listening.
 */
export function listenForInterrupt(io: CliIo, what: string, options: InterruptOptions = {}): Interruption {
  const controller = new AbortController();
  const now = io.now ?? (() => performance.now());
  let first: { readonly signal: StopSignal; readonly at: number } | undefined;
  const quitNow = (signal: StopSignal) => {
    try {
      options.saveNow?.();
    } catch (error) {
      io.stderr(`kreplay: what was measured could not be written: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(stopExitCode(signal));
  };
  const listeners = stopSignals.map((signal) => {
    const listener = () => {
      if (first === undefined) {
        first = { signal, at: now() };
        const again = signal === 'SIGINT' ? 'Ctrl-C again' : 'signal again';
        io.stderr(`\nkreplay: ${describeStop(signal)}; ${what} (${again} to quit now)\n`);
        controller.abort(signal);
      } else if (now() - first.at >= sameRequestMilliseconds) {
        quitNow(first.signal);
      }
    };
    process.on(signal, listener);
    return { signal, listener };
  });
  return {
    signal: controller.signal,
    get received() {
      return first?.signal;
    },
    [Symbol.dispose]: () => {
      for (const { signal, listener } of listeners) process.off(signal, listener);
    },
  };
}
