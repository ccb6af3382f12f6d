import type { Queue, Runtime } from '@kreplay/native';

/** A checkpoint of the memory of one queue's context: saved once per dispatch, restored between passes. */
export interface CheckpointSession {
  /** Saves every allocation of the context; resolves when the save completed. */
  save(): Promise<void>;
  /** Puts memory back as the last save found it; resolves when the restore completed. */
  restore(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A baseline that snapshots with a vendor checkpoint facility (on NVIDIA, the CUPTI Checkpoint API)
 * instead of a kreplay strategy. Optional: when `unavailableReason` says why it cannot run, the
 * report records that reason, and the run goes on without it.
 */
export interface CheckpointProvider {
  /** The name of its rows, e.g. `cupti-checkpoint`. */
  readonly name: string;
  /** Why it cannot run on this runtime, or null when it can. */
  unavailableReason(runtime: Runtime): string | null;
  /** A session on `queue`, whose context holds the workload. */
  open(queue: Queue): Promise<CheckpointSession>;
}

/** What the report says about the checkpoint baseline. */
export interface CheckpointAvailability {
  readonly provider: string;
  readonly available: boolean;
  /** Why it did not run; null when it ran. */
  readonly reason: string | null;
}
