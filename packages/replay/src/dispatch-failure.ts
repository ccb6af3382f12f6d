import type { MemoryRange } from '@kreplay/native';

/** Where a window failed: a pass's kernel, a restore (after its retry), the final read-back, or somewhere unknown. */
export type FailurePhase = 'pass' | 'restore' | 'finish' | 'unknown';

/**
 * The state application memory was left in after a failure:
 * - `pre-dispatch`: as before the dispatch (the kernel's effect is not there);
 * - `dispatch-result`: as after one run of the kernel (only the bookkeeping failed);
 * - `unknown`: `rangesNotRestored` lists every range that may hold other bytes.
 */
export type MemoryState = 'pre-dispatch' | 'dispatch-result' | 'unknown';

/** A device error as plain data. */
export interface ErrorSummary {
  readonly name: string;
  readonly message: string;
  /** The driver's code (e.g. `injected-fault`), when the error has one. */
  readonly code: string | null;
  /** The failed operation, when the error says. */
  readonly operation: string | null;
}

/** What failed in a dispatch, and where that left memory. */
export interface DispatchFailure {
  readonly phase: FailurePhase;
  /** The pass that failed, or the pass a failed restore was for; `null` when unknown. */
  readonly pass: number | null;
  /** How many times the failed phase was tried. */
  readonly attempts: number;
  readonly error: ErrorSummary;
  readonly memory: MemoryState;
  /** With `memory: 'unknown'`: the ranges that may not hold their pre-dispatch bytes. */
  readonly rangesNotRestored: readonly MemoryRange[];
}

/** An error as plain data. */
export function summarizeError(error: unknown): ErrorSummary {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), code: null, operation: null };
  const fields = error as Error & { code?: unknown; operation?: unknown };
  return {
    name: error.name,
    message: error.message,
    code: typeof fields.code === 'string' ? fields.code : null,
    operation: typeof fields.operation === 'string' ? fields.operation : null,
  };
}
