import type { Queue } from '@kreplay/native';
import type { DispatchRequest } from './dispatch-request.js';

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
  /** How many passes (an integer >= 1) the dispatch gets; 1 means it runs once, with no snapshot. */
  passCount(dispatch: DispatchRequest): number;
  /**
   * Called right before the kernel of pass `pass` (1-based) is enqueued on `queue`. May be called
   * again for the same pass when the engine enqueues it again after a failed restore; the later
   * call wins.
   */
  beginPass(pass: number, queue: Queue): void;
  /** Called right after the kernel of pass `pass` is enqueued on `queue`. */
  endPass(pass: number, queue: Queue): void;
  /**
   * Optional: what the passes of the window on `queue` collected, JSON-serialisable. Called once per
   * dispatch, after the queue has completed the window's work. `completedPasses` lists the passes
   * that ran to their end: after a device failure the queue skips later work, so what the other
   * passes enqueued (events included) holds nothing to collect.
   */
  collect?(queue: Queue, completedPasses: readonly number[]): unknown;
}
