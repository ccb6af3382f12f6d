/**
 * The host's side of one dispatch's time: when the engine began it, when the first phase of its
 * window (or single run) was enqueued, and when its last wait for the queue ended. The device waits
 * for the host until the first phase is enqueued; after the last wait, the host's bookkeeping
 * delays the caller's next dispatch.
 */
export class HostClock {
  readonly startedMs = performance.now();
  #firstEnqueuedMs: number | undefined;
  #waitEndedMs: number | undefined;

  /** Notes that a phase was enqueued; the first one counts. */
  enqueued(): void {
    this.#firstEnqueuedMs ??= performance.now();
  }

  /** Notes that a wait for the queue ended; the last one counts. */
  waited(): void {
    this.#waitEndedMs = performance.now();
  }

  /** Host milliseconds from the start to the first phase enqueued; null when nothing was. */
  get beforeEnqueueMs(): number | null {
    return this.#firstEnqueuedMs === undefined ? null : this.#firstEnqueuedMs - this.startedMs;
  }

  /** Host milliseconds from the end of the last wait to `nowMs`; null when nothing was waited for. */
  afterWaitMs(nowMs: number): number | null {
    return this.#waitEndedMs === undefined ? null : nowMs - this.#waitEndedMs;
  }
}
