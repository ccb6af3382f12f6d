import { phaseMilliseconds, type WindowPhase } from './window-phase.js';

/** Device milliseconds per kind of phase, from the phases' events (phases that did not complete are left out). */
export interface PhaseTimings {
  readonly captureMs: number | null;
  readonly passMs: number[];
  readonly restoreMs: number[];
  /** Device milliseconds of verification hashing. */
  readonly hashMs: number;
}

/** Reads the device clock of every phase that completed. */
export function phaseTimings(phases: readonly WindowPhase[]): PhaseTimings {
  let captureMs: number | null = null;
  const passMs: number[] = [];
  const restoreMs: number[] = [];
  let hashMs = 0;
  for (const step of phases) {
    const milliseconds = phaseMilliseconds(step);
    if (milliseconds === null) continue;
    if (step.kind === 'capture') captureMs = milliseconds;
    else if (step.kind === 'pass') passMs.push(milliseconds);
    else if (step.kind === 'restore') restoreMs.push(milliseconds);
    else if (step.kind === 'hash') hashMs += milliseconds;
  }
  return { captureMs, passMs, restoreMs, hashMs };
}
