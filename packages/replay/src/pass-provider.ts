import type { Queue } from '@kreplay/native';
import type { EngineDispatchRequest } from './dispatch-request.js';

/**
 * What each pass of a window runs: `dispatches` kernels, one after another (1 for a single
 * dispatch; K for a range of K dispatches replayed as one unit).
 */
export interface PassScope {
  readonly dispatches: number;
}

/** The version of the pass-provider contract this package speaks. */
export const passProviderSpecificationVersion = 1;

/**
 * Decides how many passes a dispatch gets and what each pass collects. Implementations are
 * factories returning plain objects. Hooks are synchronous: they enqueue work (events, counter
 * reads) on the queue, and never wait. One provider may serve windows on several queues at once;
 * it tells them apart by the queue it is given.
 */
export interface PassProvider {
  readonly specificationVersion: typeof passProviderSpecificationVersion;
  readonly name: string;
  /**
   * How many passes (an integer >= 1) the dispatch gets; 1 means it runs once, with no snapshot.
   * For a range it is asked once, with the range's first dispatch, and every dispatch gets that count;
   * for a graph launch, with the graph's request (one workload).
   */
  passCount(dispatch: EngineDispatchRequest): number;
  /**
   * Called right before the kernel of pass `pass` (1-based) is enqueued on `queue` (for a range:
   * before its first dispatch's kernel). May be called again for the same pass when the engine
   * enqueues it again after a failed restore; the later call wins. `scope` says how many dispatches
   * the pass runs; it is absent for a single dispatch (one).
   */
  beginPass(pass: number, queue: Queue, scope?: PassScope): void;
  /** Called right after the kernel of pass `pass` is enqueued on `queue` (for a range: after its last). */
  endPass(pass: number, queue: Queue): void;
  /**
   * Optional, ranges only: called right before dispatch `index` (0-based within the range) of pass
   * `pass` is enqueued, between `beginPass` and `endPass`.
   */
  beginDispatch?(pass: number, index: number, queue: Queue): void;
  /** Optional, ranges only: called right after dispatch `index` of pass `pass` is enqueued. */
  endDispatch?(pass: number, index: number, queue: Queue): void;
  /**
   * Optional: what the passes of the window on `queue` collected, JSON-serialisable. Called once per
   * dispatch, after the queue has completed the window's work. `completedPasses` lists the passes
   * that ran to their end: after a device failure the queue skips later work, so what the other
   * passes enqueued (events included) holds nothing to collect.
   */
  collect?(queue: Queue, completedPasses: readonly number[]): unknown;
  /**
   * Optional, ranges only: what the passes collected for each dispatch of the range on `queue`, one
   * JSON-serialisable value per dispatch (`dispatches` of them, in order). Called once per range
   * instead of `collect`, after the queue has completed the range's work; `completedPasses` as for
   * `collect`. Without it a range gets `collect`'s one value for the whole range.
   */
  collectRange?(queue: Queue, completedPasses: readonly number[], dispatches: number): readonly unknown[];
}
