import type { KernelDescriptor } from '@kreplay/native';
import { bytesCopied, emptyByteAccount, type ByteAccount, type Snapshot } from '@kreplay/snapshot';
import type { Decline } from './decline.js';
import type { DispatchFailure } from './dispatch-failure.js';
import type { DispatchResult } from './dispatch-result.js';
import type { HostClock } from './host-clock.js';
import type { RunOnceOutcome } from './run-once.js';
import type { WindowOutcome } from './replay-window.js';
import { compareHashes } from './verification.js';
import { pointKey, type HashPoint, type VerificationPlan } from './verification-plan.js';
import { unverifiedReport, verifiedOfStatus, type VerifyMode, type VerificationReport } from './verification-report.js';
import { phaseCompleted, type WindowPhase } from './window-phase.js';
import { phaseTimings } from './window-timings.js';

/** Everything a dispatch produced, before it is shaped into a {@link DispatchResult}. */
export interface DispatchRecord {
  readonly strategyName: string;
  readonly kernel: KernelDescriptor;
  readonly mode: VerifyMode;
  readonly passesRequested: number;
  readonly snapshot: Snapshot | undefined;
  /** The snapshot's account, read after the queue completed (undefined without a snapshot). */
  readonly account: ByteAccount | undefined;
  readonly window: WindowOutcome | undefined;
  readonly once: RunOnceOutcome | undefined;
  readonly decline: Decline | undefined;
  readonly plan: VerificationPlan | undefined;
  readonly collected: { readonly value: unknown } | undefined;
  readonly quiesceMs: number;
  readonly lockWaitMs: number;
  readonly clock: HostClock;
  readonly notes: string[];
}

/** Shapes a dispatch's record into its plain-data result (verification hashes are compared here). */
export function assembleResult(record: DispatchRecord): DispatchResult {
  const { window, once, decline, snapshot, notes } = record;
  const replayed = window !== undefined && window.kind !== 'capture-failed';
  const phases: readonly WindowPhase[] = [...(window?.phases ?? []), ...(once?.phases ?? [])];
  const failure: DispatchFailure | undefined = once?.failure ?? (window?.kind === 'failed' ? window.failure : undefined);
  const compareStarted = performance.now();
  const verification = verify(record, replayed, failure, notes);
  const compareMs = performance.now() - compareStarted;
  const timings = phaseTimings(phases);
  const endedMs = performance.now();
  const bytes = record.account ?? emptyByteAccount();
  if (window && window.kind !== 'completed') notes.push('the byte account counts what the strategy enqueued; the window did not complete');
  return {
    replayed,
    ...(decline ? { declineReason: decline.reason, declineCode: decline.code } : {}),
    ...(failure ? { failure } : {}),
    strategy: record.strategyName,
    tier: replayed && snapshot ? snapshot.tier : null,
    passesRequested: record.passesRequested,
    passes: phases.filter((step) => step.kind === 'pass' && phaseCompleted(step)).length,
    bytes,
    bytesCopied: bytesCopied(bytes),
    timings: {
      quiesceMs: record.quiesceMs,
      lockWaitMs: record.lockWaitMs,
      captureMs: replayed ? timings.captureMs : null,
      passMs: timings.passMs,
      restoreMs: timings.restoreMs,
      verifyMs: timings.hashMs + (verification.mode === 'off' ? 0 : compareMs),
      wallMs: endedMs - record.clock.startedMs,
      hostBeforeEnqueueMs: record.clock.beforeEnqueueMs,
      hostAfterWaitMs: record.clock.afterWaitMs(endedMs),
    },
    verification,
    verified: verifiedOfStatus(verification.status),
    ...(record.collected ? { collected: record.collected.value } : {}),
    notes,
  };
}

/**
 * The verification report of the window. A window that failed proves nothing: its report is
 * `incomplete` unless a check it made found a mismatch.
 */
function verify(record: DispatchRecord, replayed: boolean, failure: DispatchFailure | undefined, notes: string[]): VerificationReport {
  const { plan, mode, window } = record;
  if (mode === 'off' || plan === undefined || !replayed || window === undefined) return unverifiedReport(mode);
  const taken = new Set(
    window.phases.filter((step) => step.point !== undefined && phaseCompleted(step)).map((step) => pointKey(step.point!)),
  );
  const hashes = { mode, plan, passCount: record.passesRequested, taken: (point: HashPoint) => taken.has(pointKey(point)), hashedPoints: taken.size };
  const report = compareHashes(hashes, record.kernel, notes);
  return failure !== undefined && report.status === 'verified' ? { ...report, status: 'incomplete' } : report;
}
