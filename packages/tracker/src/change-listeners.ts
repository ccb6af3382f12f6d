import type { AllocationChange, AllocationChangeListener } from './allocation-change.js';
import { describeValue, trackerArgumentError } from './errors.js';
import type { MutableTrackerStats } from './tracker-stats.js';

/**
 * The `onChange` listeners of a tracker. A listener that throws does not stop the others, nor the
 * runtime's event delivery: its error is counted and handed to `onListenerError`.
 */
export class ChangeListeners {
  #listeners: AllocationChangeListener[] = [];
  readonly #stats: MutableTrackerStats;
  readonly #onListenerError: (error: unknown, change: AllocationChange) => void;

  constructor(
    stats: MutableTrackerStats,
    onListenerError: (error: unknown, change: AllocationChange) => void,
  ) {
    this.#stats = stats;
    this.#onListenerError = onListenerError;
  }

  /**
   * Adds a listener; returns its unsubscribe function (idempotent).
   * @throws {ArgumentError} when `listener` is not a function.
   */
  add(listener: AllocationChangeListener): () => void {
    if (typeof listener !== 'function') {
      throw trackerArgumentError(
        'tracker',
        'listener',
        `listener is ${describeValue(listener)}, not a function`,
        'Pass a function (change) => void',
      );
    }
    // A wrapper per subscription, so the same function subscribed twice unsubscribes one at a time.
    const entry: AllocationChangeListener = (change) => listener(change);
    this.#listeners = [...this.#listeners, entry];
    return () => {
      this.#listeners = this.#listeners.filter((candidate) => candidate !== entry);
    };
  }

  /** Calls every listener subscribed now with `change`. Never throws. */
  emit(change: AllocationChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#stats.listenerErrors += 1;
        try {
          this.#onListenerError(error, change);
        } catch (handlerError) {
          queueMicrotask(() => {
            throw handlerError;
          });
        }
      }
    }
  }

  /** Drops every listener. */
  clear(): void {
    this.#listeners = [];
  }
}
