/**
 * Runs the windows of one queue one after another. A queue records its first failure and skips the
 * rest until `synchronize()`, so two windows sharing a queue must never be in flight together:
 * the second's synchronize could swallow the first's error, or see its own work skipped.
 */
export class QueueSerializer {
  readonly #tails = new Map<number, Promise<unknown>>();

  /**
   * Runs `task` after every task already queued for `queueId` has settled; at once (in the
   * caller's turn) when none is, so a dispatch on an idle queue reaches the device without waiting
   * for a later turn.
   */
  run<T>(queueId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(queueId);
    const result = previous === undefined ? start(task) : previous.then(task, task);
    this.#tails.set(queueId, result);
    // Registered before the caller can await `result`, so the queue reads as idle by the time the
    // caller's next dispatch comes.
    const clear = () => {
      if (this.#tails.get(queueId) === result) this.#tails.delete(queueId);
    };
    result.then(clear, clear);
    return result;
  }
}

/** Calls `task`, turning a synchronous throw into a rejection. */
function start<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (error) {
    return Promise.reject(error);
  }
}
