import type { Queue } from '@kreplay/native';
import type { PhaseMarkers } from './phase-markers.js';
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
 * Enqueues `phases[from..]` (skipped ones left out), each between two events and followed by its
 * marker, then waits ONCE for the queue. On a failure, the first phase whose marker did not run is
 * the one that failed (the queue skips everything after its first failed operation; its events
 * complete regardless, so they time phases but cannot tell which ran). Marker slot 0 opens the
 * batch; phase i uses slot i + 1. If enqueueing throws (a plug-in hook, a rejected argument), the
 * queue is drained before rethrowing, so nothing of the window is still running.
 */
export async function runPhases(queue: Queue, phases: readonly WindowPhase[], from: number, markers: PhaseMarkers): Promise<BatchOutcome> {
  markers.reset();
  try {
    markers.enqueue(queue, 0);
    let previous = queue.recordEvent();
    for (let index = from; index < phases.length; index += 1) {
      const step = phases[index]!;
      if (step.skipped) continue;
      step.start = previous;
      step.completed = false;
      step.enqueue();
      markers.enqueue(queue, index + 1);
      step.end = previous = queue.recordEvent();
    }
  } catch (error) {
    await queue.synchronize().catch(() => undefined);
    throw error;
  }
  let failure: { error: unknown } | undefined;
  try {
    await queue.synchronize();
    const last = lastEnqueued(phases, from);
    if (!markers.reached(last + 1)) failure = { error: new Error(stolenErrorMessage) };
  } catch (error) {
    failure = { error };
  }
  let failedIndex: number | undefined;
  for (let index = from; index < phases.length; index += 1) {
    const step = phases[index]!;
    if (step.skipped) continue;
    step.completed = failure === undefined || markers.reached(index + 1);
    if (!step.completed && failedIndex === undefined) failedIndex = index;
  }
  if (failure === undefined) return { kind: 'completed' };
  return { kind: 'failed', error: failure.error, failedIndex, failedBefore: !markers.reached(0) };
}

const stolenErrorMessage =
  'the queue skipped work of the window, but its error was reported to another synchronize (of this queue or of the agent) before the window waited';

/** The index of the last phase the batch enqueued, or -1 when none (its marker slot is then 0, the opening one). */
function lastEnqueued(phases: readonly WindowPhase[], from: number): number {
  for (let index = phases.length - 1; index >= from; index -= 1) if (!phases[index]!.skipped) return index;
  return -1;
}
