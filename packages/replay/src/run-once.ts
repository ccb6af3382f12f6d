import type { MemoryRange } from '@kreplay/native';
import { summarizeError, type DispatchFailure } from './dispatch-failure.js';
import { plainRange } from './memory-ranges.js';
import { runPhases } from './phase-runner.js';
import { passPhase, type PassTarget } from './window-phases.js';
import type { WindowPhase } from './window-phase.js';

/** How a dispatch run once (declined, or one pass) went. */
export interface RunOnceOutcome {
  readonly phases: readonly WindowPhase[];
  readonly failure?: DispatchFailure;
}

/**
 * Runs the dispatch exactly once, as pass 1 (the provider's hooks around it), with no snapshot,
 * and waits once. When the kernel fails, memory is as the failed kernel left it: `mayHaveWritten`
 * is reported as not restored. `pass` is the phase of pass 1 when it is not {@link passPhase}'s (a range's).
 * @throws {ReplayPluginError} when a pass-provider hook throws (the queue is drained first).
 */
export async function runOnce(target: PassTarget, mayHaveWritten: readonly MemoryRange[], pass?: WindowPhase): Promise<RunOnceOutcome> {
  const phases = [pass ?? passPhase(target, 1)];
  const outcome = await runPhases(target.queue, phases, 0, target.phaseTimings, target.clock);
  if (outcome.kind === 'completed') return { phases };
  return {
    phases,
    failure: {
      phase: 'pass',
      pass: 1,
      attempts: 1,
      error: summarizeError(outcome.error),
      memory: 'unknown',
      rangesNotRestored: mayHaveWritten.map(plainRange),
    },
  };
}
