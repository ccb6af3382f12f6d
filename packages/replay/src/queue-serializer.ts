/**
 * Runs the windows of one queue one after another. A queue records its first failure and skips the
 * rest until `synchronize()`, so two windows sharing a queue must never be in flight together:
 * the second's synchronize could swallow the first's error, or see its own work skipped.
 */
export class QueueSerializer {
  readonly #tails = new Map<number, Promise<unknown>>();

  /** Runs `task` after every task already queued for `queueId` has settled. */
  run<T>(queueId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(queueId) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(queueId, tail);
    void tail.then(() => {
      if (this.#tails.get(queueId) === tail) this.#tails.delete(queueId);
    });
    return result;
  }
}
