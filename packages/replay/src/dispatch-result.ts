import type { ByteAccount, StagingTier } from '@kreplay/snapshot';
import type { DeclineCode } from './decline.js';
import type { DispatchFailure } from './dispatch-failure.js';
import type { VerificationReport } from './verification-report.js';

/** Where the time of one dispatch went. Device milliseconds come from queue events; `null` = the phase did not run. */
export interface DispatchTimings {
  /** Host milliseconds waiting for the agent's queues (`quiesce: 'agent'`); 0 with `'queue'`. */
  readonly quiesceMs: number;
  /** Host milliseconds waiting for conflicting windows on other queues. */
  readonly lockWaitMs: number;
  /** Device milliseconds of the capture. */
  readonly captureMs: number | null;
  /** Device milliseconds of each pass that completed, pass 1 first. */
  readonly passMs: readonly number[];
  /** Device milliseconds of each restore that completed (before pass 2, 3, ...). */
  readonly restoreMs: readonly number[];
  /** Device milliseconds of verification hashing plus host milliseconds comparing hashes. */
  readonly verifyMs: number;
  /** Host milliseconds from `dispatch()` to its result. */
  readonly wallMs: number;
  /**
   * Host milliseconds from `dispatch()` to the first phase of its window (or single run) enqueued:
   * time the device waits for the host. Null when nothing was enqueued.
   */
  readonly hostBeforeEnqueueMs: number | null;
  /**
   * Host milliseconds from the end of the last wait for the queue to the result: the bookkeeping that
   * delays the caller's next dispatch. Null when nothing was waited for.
   */
  readonly hostAfterWaitMs: number | null;
}

/** The outcome of one dispatch through the engine. Plain data: `JSON.stringify` keeps all of it. */
export interface DispatchResult {
  /** The dispatch went through the replay window (more than one pass, captured). */
  readonly replayed: boolean;
  /** Why the dispatch was run once instead of replayed; absent when it was not declined. */
  readonly declineReason?: string;
  /** The kind of decline; present exactly when `declineReason` is. */
  readonly declineCode?: DeclineCode;
  /** What went wrong on the device, and the state memory was left in; absent on success. */
  readonly failure?: DispatchFailure;
  /** The strategy's name. */
  readonly strategy: string;
  /** Where the snapshot was staged; `null` when nothing was captured. */
  readonly tier: StagingTier | null;
  /** How many passes the provider asked for. */
  readonly passesRequested: number;
  /** How many passes ran to completion. */
  readonly passes: number;
  /** The snapshot's exact byte account (all zero when nothing was captured). */
  readonly bytes: ByteAccount;
  /** Bytes copied, every direction. */
  readonly bytesCopied: number;
  readonly timings: DispatchTimings;
  readonly verification: VerificationReport;
  /**
   * `verification.status` as a boolean: true when verification proved the replay exact
   * (`verified`), false when it found a mismatch (`mismatch`), and `null` when nothing was proven
   * either way: verification off, the dispatch not replayed (declined, or one pass), or a
   * verification that could not be completed (`incomplete`, e.g. a hash that failed twice).
   */
  readonly verified: boolean | null;
  /** What the pass provider's `collect` returned, when it has one. */
  readonly collected?: unknown;
  /** Plain-words notes: fallbacks, retries, strategy notes. */
  readonly notes: readonly string[];
}
