import type { TimingEvent } from '@kreplay/native';
import type { HashPoint } from './verification-plan.js';

/** What a phase of the window does. */
export type PhaseKind = 'capture' | 'pass' | 'restore' | 'hash' | 'finish';

/**
 * One step of a window: it enqueues its work, and the runner brackets it with events (the device
 * clock times it) and notes the queue's work count after it (which shows whether it ran).
 */
export interface WindowPhase {
  readonly kind: PhaseKind;
  /** `pass`: the pass; `restore`: the pass it prepares; 0 otherwise. */
  readonly pass: number;
  /** `hash`: the moment hashed. */
  readonly point?: HashPoint;
  /** Enqueues the phase's work (and nothing that waits). */
  readonly enqueue: () => void;
  /** Events of the latest attempt: the phase ran from `start` to `end`. */
  start?: TimingEvent;
  end?: TimingEvent;
  /** Whether the latest attempt ran to its end on the device. */
  completed: boolean;
  /** How many attempts failed. */
  failures: number;
  /** Left out of later attempts (a verification hash that failed twice). */
  skipped: boolean;
}

/** A phase in its initial state. */
export function phase(kind: PhaseKind, pass: number, enqueue: () => void, point?: HashPoint): WindowPhase {
  return { kind, pass, enqueue, completed: false, failures: 0, skipped: false, ...(point ? { point } : {}) };
}

/** Whether the phase's latest attempt completed on the device. */
export function phaseCompleted(phase: WindowPhase): boolean {
  return phase.completed && !phase.skipped;
}

/** Device milliseconds of the phase's latest attempt, or null when it did not complete. */
export function phaseMilliseconds(phase: WindowPhase): number | null {
  if (!phaseCompleted(phase) || !phase.start?.completed || !phase.end?.completed) return null;
  return phase.end.elapsedMillisecondsSince(phase.start);
}
