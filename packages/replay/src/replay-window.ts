import type { MemoryRange } from '@kreplay/native';
import { errorMessage } from './decline.js';
import { summarizeError, type DispatchFailure, type FailurePhase, type MemoryState } from './dispatch-failure.js';
import { plainRange } from './memory-ranges.js';
import { runPhases } from './phase-runner.js';
import { finishPhase, replayPhases, restorePhase, type ReplayWindow } from './window-phases.js';
import type { WindowPhase } from './window-phase.js';

/** How a replay window ended. */
export type WindowOutcome =
  | { readonly kind: 'completed'; readonly phases: readonly WindowPhase[] }
  /** Capture failed: application memory is untouched (capture writes only staging); run the dispatch once. */
  | { readonly kind: 'capture-failed'; readonly phases: readonly WindowPhase[]; readonly error: unknown }
  | { readonly kind: 'failed'; readonly phases: readonly WindowPhase[]; readonly failure: DispatchFailure };

/** How many times a restore, a verification hash or the finish is tried before it counts as failed. */
const attemptsPerPhase = 2;

/**
 * Runs one replay window: enqueues capture, passes (`passOf` makes each: a single dispatch's
 * kernel, or a range's whole sequence) and restores (and verification hashes), waits once, and
 * handles a failure the queue reports:
 * - capture failed: returned as `capture-failed`;
 * - a restore failed: retried once, then the remaining passes run; failing again is a failure, after
 *   one more restore attempt to put memory back as it was before the dispatch;
 * - a pass's kernel failed: a failure, after one restore attempt;
 * - a verification hash failed: retried once, then skipped (verification becomes incomplete);
 * - finish failed: retried once, then a failure that leaves memory as the dispatch left it.
 * @throws {ReplayPluginError} when a strategy or pass-provider hook throws (the queue is drained first).
 */
export async function runReplayWindow(window: ReplayWindow, passOf: (pass: number) => WindowPhase): Promise<WindowOutcome> {
  const phases = replayPhases(window, passOf);
  let from = 0;
  let earlierFailureForgiven = false;
  for (;;) {
    const outcome = await runPhases(window.queue, phases, from, window.phaseTimings, window.clock);
    if (outcome.kind === 'completed') return { kind: 'completed', phases };
    const { error, failedIndex } = outcome;
    if (outcome.failedBefore && !earlierFailureForgiven) {
      earlierFailureForgiven = true;
      window.notes.push(`the queue had failed before the window began (${errorMessage(error)}); the window was enqueued again`);
      continue;
    }
    const failed = failedIndex === undefined ? undefined : phases[failedIndex];
    if (failed === undefined) return fail(window, phases, 'unknown', null, 1, error, 'unknown');
    failed.failures += 1;
    const again = failed.failures < attemptsPerPhase;
    switch (failed.kind) {
      case 'capture':
        return { kind: 'capture-failed', phases, error };
      case 'hash':
        window.notes.push(`a verification hash failed (${errorMessage(error)}); ${again ? 'retried' : 'skipped'}`);
        if (!again) failed.skipped = true;
        from = again ? failedIndex! : failedIndex! + 1;
        continue;
      case 'finish':
        if (again) {
          from = failedIndex!;
          continue;
        }
        return fail(window, phases, 'finish', null, failed.failures, error, 'dispatch-result');
      case 'restore':
        if (again) {
          window.notes.push(`the restore before pass ${failed.pass} failed (${errorMessage(error)}); retried`);
          from = failedIndex!;
          continue;
        }
        return recover(window, phases, 'restore', failed.pass, failed.failures, error);
      case 'pass':
        return recover(window, phases, 'pass', failed.pass, failed.failures, error);
    }
  }
}

/** One more restore attempt, so memory is as before the dispatch; otherwise the ranges that may not be. */
async function recover(
  window: ReplayWindow,
  phases: readonly WindowPhase[],
  phaseName: FailurePhase,
  pass: number,
  attempts: number,
  error: unknown,
): Promise<WindowOutcome> {
  const nextPass = phaseName === 'pass' ? pass + 1 : pass;
  const recovery = [restorePhase(window, nextPass), finishPhase(window)];
  const outcome = await runPhases(window.queue, recovery, 0, window.phaseTimings, window.clock);
  const restored = outcome.kind === 'completed' || outcome.failedIndex === 1;
  if (outcome.kind === 'failed') {
    window.notes.push(
      restored
        ? `the byte account may be incomplete: finish failed (${errorMessage(outcome.error)})`
        : `putting memory back as it was before the dispatch failed too (${errorMessage(outcome.error)})`,
    );
  }
  return fail(window, phases, phaseName, pass, attempts, error, restored ? 'pre-dispatch' : 'unknown');
}

function fail(
  window: ReplayWindow,
  phases: readonly WindowPhase[],
  phaseName: FailurePhase,
  pass: number | null,
  attempts: number,
  error: unknown,
  memory: MemoryState,
): WindowOutcome {
  const rangesNotRestored: MemoryRange[] = memory === 'unknown' ? window.snapshot.ranges.map(plainRange) : [];
  return {
    kind: 'failed',
    phases,
    failure: { phase: phaseName, pass, attempts, error: summarizeError(error), memory, rangesNotRestored },
  };
}
