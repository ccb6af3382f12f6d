import type { Writable } from 'node:stream';

/** A stream of this process whose reader may go away. */
export interface ClosableOutput {
  /** Writes `text`; does nothing once the stream is closed. */
  readonly write: (text: string) => void;
  /** Aborted, with the stream's error as its reason, when a write failed: EPIPE once the reader closed the pipe (`| head`). */
  readonly closed: AbortSignal;
}

/**
 * Wraps stdout or stderr so that a reader going away ends its output quietly: the write error
 * (EPIPE, or ECONNRESET and EIO for a socket or a terminal gone) closes it, instead of crashing the
 * process with an unhandled 'error' event, and later writes are dropped. It listens to the stream
 * from its first write on.
 */
export function closableOutput(stream: Writable): ClosableOutput {
  const controller = new AbortController();
  let listening = false;
  return {
    closed: controller.signal,
    write: (text) => {
      if (controller.signal.aborted) return;
      if (!listening) {
        listening = true;
        stream.on('error', (error) => controller.abort(error));
      }
      stream.write(text);
      // A pipe write fails at once, but its 'error' event comes later: close now, so that the command sees it.
      if (stream.errored !== null) controller.abort(stream.errored);
    },
  };
}
