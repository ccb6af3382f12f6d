import type { Queue } from '@kreplay/native';
import type { Snapshot } from '@kreplay/snapshot';
import type { DispatchRequest } from './dispatch-request.js';
import type { HashBufferPool } from './hash-buffer-pool.js';
import type { HostClock } from './host-clock.js';
import type { PassProvider } from './pass-provider.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import type { HashPoint, VerificationPlan } from './verification-plan.js';
import type { VerifyMode } from './verification-report.js';
import { phase, type WindowPhase } from './window-phase.js';

/** Where a window's phases enqueue their work, and the engine's parts they use. */
export interface WindowTarget {
  readonly queue: Queue;
  readonly provider: PassProvider;
  /** Where the window's verification hashes get their host buffers. */
  readonly buffers: HashBufferPool;
  /** Whether phases are timed with device events. */
  readonly phaseTimings: boolean;
  /** Notes the host's side of the dispatch's time. */
  readonly clock: HostClock;
}

/** Everything one replay window needs. */
export interface ReplayWindow extends WindowTarget {
  readonly passCount: number;
  readonly snapshot: Snapshot;
  readonly strategy: PluginIdentity;
  readonly verification: { readonly mode: Exclude<VerifyMode, 'off'>; readonly plan: VerificationPlan } | undefined;
  /** Notes the window adds to (retries, skipped hashes). */
  readonly notes: string[];
}

/** The phase of pass `pass` of a single dispatch: beginPass, its kernel, endPass. */
export function passPhase(target: WindowTarget, dispatch: DispatchRequest, pass: number): WindowPhase {
  const provider: PluginIdentity = { kind: 'pass provider', name: target.provider.name };
  return phase('pass', pass, () => {
    runPluginHook(provider, 'beginPass', () => target.provider.beginPass(pass, target.queue));
    if (dispatch.launch === undefined) target.queue.enqueueKernel(dispatch.kernel, dispatch.args);
    else target.queue.enqueueKernel(dispatch.kernel, dispatch.args, dispatch.launch);
    runPluginHook(provider, 'endPass', () => target.provider.endPass(pass, target.queue));
  });
}

/** The phase that restores the snapshot before pass `nextPass`. */
export function restorePhase(window: ReplayWindow, nextPass: number): WindowPhase {
  return phase('restore', nextPass, () => runPluginHook(window.strategy, 'snapshot.restore', () => window.snapshot.restore(nextPass)));
}

/** The phase that enqueues what the snapshot's account reads back. */
export function finishPhase(window: ReplayWindow): WindowPhase {
  return phase('finish', 0, () => runPluginHook(window.strategy, 'snapshot.finish', () => window.snapshot.finish()));
}

/**
 * The whole window, in queue order: capture, [hash], then per pass: pass, [hash], and before the
 * next pass: restore, [hash]; finally finish. Hashes are taken when verification is on.
 * `passOf` makes the phase of a pass (a single dispatch's kernel, or a range's whole sequence).
 */
export function replayPhases(window: ReplayWindow, passOf: (pass: number) => WindowPhase): WindowPhase[] {
  const { verification, snapshot, strategy, passCount } = window;
  const hash = (point: HashPoint): WindowPhase[] =>
    verification ? [phase('hash', 0, () => verification.plan.enqueueHash(window.queue, point), point)] : [];
  const phases = [phase('capture', 0, () => runPluginHook(strategy, 'snapshot.capture', () => snapshot.capture()))];
  phases.push(...hash({ kind: 'baseline' }));
  for (let pass = 1; pass <= passCount; pass += 1) {
    phases.push(passOf(pass));
    if (verification?.mode === 'full') phases.push(...hash({ kind: 'pass', pass }));
    if (pass < passCount) phases.push(restorePhase(window, pass + 1), ...hash({ kind: 'restore', pass: pass + 1 }));
  }
  phases.push(finishPhase(window));
  return phases;
}

/** The hash points a window of `passCount` passes takes in `mode`. */
export function hashPoints(mode: Exclude<VerifyMode, 'off'>, passCount: number): HashPoint[] {
  const points: HashPoint[] = [{ kind: 'baseline' }];
  for (let pass = 1; pass <= passCount; pass += 1) {
    if (mode === 'full') points.push({ kind: 'pass', pass });
    if (pass < passCount) points.push({ kind: 'restore', pass: pass + 1 });
  }
  return points;
}
