import type { Queue } from '@kreplay/native';
import type { HostClock } from './host-clock.js';
import { PhaseProgress } from './phase-progress.js';
import type { WindowPhase } from './window-phase.js';

/** How one batch of phases went. */
export type BatchOutcome =
  | { readonly kind: 'completed' }
  | {
      readonly kind: 'failed';
      readonly error: unknown;
      /** The index of the first phase that did not run to its end; undefined when every phase did. */
      readonly failedIndex: number | undefined;
      /** The queue had failed before the batch began (work enqueued before the window). */
      readonly failedBefore: boolean;
    };

/**
 * Enqueues `phases[from..]` (skipped ones left out), each between two events, then waits ONCE for
 * the queue. On a failure, the failed operation's index (see {@link PhaseProgress}) tells which
 * phase failed: the queue skips everything after its first failed operation, and its events
 * complete regardless, so they time phases but cannot tell which ran. If enqueueing throws (a
 * plug-in hook, a rejected argument), the queue is drained before rethrowing, so nothing of the
 * window is still running. `clock` notes when the first phase was enqueued and when the wait ended.
 */
export async function runPhases(queue: Queue, phases: readonly WindowPhase[], from: number, timed = true, clock?: HostClock): Promise<BatchOutcome> {
  const progress = new PhaseProgress();
  const record = () => (timed ? queue.recordEvent() : undefined);
  try {
    progress.begin(queue);
    let previous = record();
    for (let index = from; index < phases.length; index += 1) {
      const step = phases[index]!;
      if (step.skipped) continue;
      step.start = previous;
      step.completed = false;
      step.enqueue();
      clock?.enqueued();
      progress.end(queue, index);
      step.end = previous = record();
    }
  } catch (error) {
    await queue.synchronize().catch(() => undefined);
    throw error;
  }
  let failure: { error: unknown } | undefined;
  try {
    await queue.synchronize();
  } catch (error) {
    failure = { error };
  }
  clock?.waited();
  let failedIndex: number | undefined;
  for (let index = from; index < phases.length; index += 1) {
    const step = phases[index]!;
    if (step.skipped) continue;
    step.completed = failure === undefined || progress.completed(index, failure.error);
    if (!step.completed && failedIndex === undefined) failedIndex = index;
  }
  if (failure === undefined) return { kind: 'completed' };
  return { kind: 'failed', error: failure.error, failedIndex, failedBefore: progress.failedBefore(failure.error) };
}
