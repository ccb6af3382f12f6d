import type { MemoryRange } from '@kreplay/native';
import { summarizeError, type DispatchFailure } from './dispatch-failure.js';
import { plainRange } from './memory-ranges.js';
import { runPhases } from './phase-runner.js';
import type { WindowTarget } from './window-phases.js';
import type { WindowPhase } from './window-phase.js';

/** How a dispatch run once (declined, or one pass) went. */
export interface RunOnceOutcome {
  readonly phases: readonly WindowPhase[];
  readonly failure?: DispatchFailure;
}

/**
 * Runs the unit exactly once, as pass 1 (`pass`: the provider's hooks around the dispatch or the
 * range's sequence), with no snapshot, and waits once. When a kernel fails, memory is as the failed
 * kernel left it: `mayHaveWritten` is reported as not restored.
 * @throws {ReplayPluginError} when a pass-provider hook throws (the queue is drained first).
 */
export async function runOnce(target: WindowTarget, mayHaveWritten: readonly MemoryRange[], pass: WindowPhase): Promise<RunOnceOutcome> {
  const phases = [pass];
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
