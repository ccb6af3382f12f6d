import type { Tracker } from '@kreplay/tracker';

/**
 * Subscriptions to the frees of the trackers whose allocations a strategy keeps something of. A
 * subscription is held only while it is needed ({@link keepOnly}), so a strategy that keeps nothing
 * leaves no listener behind in a tracker, and can be collected.
 */
export class TrackerFreeWatch {
  readonly #subscriptions = new Map<Tracker, () => void>();

  /** `onFree` is called with the tracker and the id of each allocation it saw freed. */
  constructor(private readonly onFree: (tracker: Tracker, allocationId: number) => void) {}

  /**
   * Listens to the frees of `tracker` (once, however often it is called).
   * @throws {DisposedError} from the tracker when it was disposed.
   */
  watch(tracker: Tracker): void {
    if (this.#subscriptions.has(tracker)) return;
    const unsubscribe = tracker.onChange((change) => {
      if (change.type === 'free') this.onFree(tracker, change.allocation.id);
    });
    this.#subscriptions.set(tracker, unsubscribe);
  }

  /** Stops listening to every tracker not in `needed`. */
  keepOnly(needed: ReadonlySet<Tracker>): void {
    for (const [tracker, unsubscribe] of this.#subscriptions) {
      if (needed.has(tracker)) continue;
      unsubscribe();
      this.#subscriptions.delete(tracker);
    }
  }

  /** How many trackers it listens to. */
  get size(): number {
    return this.#subscriptions.size;
  }
}
