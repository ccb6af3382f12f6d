import type { Snapshot } from '@kreplay/snapshot';
import { assembleResult } from './assemble-result.js';
import { captureFailed } from './decline.js';
import { dispatchClaim, rangesMayHaveWritten } from './dispatch-claim.js';
import type { DispatchResult } from './dispatch-result.js';
import type { EngineContext } from './engine-context.js';
import { HostClock } from './host-clock.js';
import { prepareWindow } from './prepare-window.js';
import { quiesceAgent } from './quiesce.js';
import type { HeldClaim } from './range-lock.js';
import { runOnce, type RunOnceOutcome } from './run-once.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { runReplayWindow, type WindowOutcome } from './replay-window.js';
import { hashTargets, VerificationPlan } from './verification-plan.js';
import { hashPoints, type WindowTarget } from './window-phases.js';
import type { WindowCollected, WindowReach, WindowUnit } from './window-unit.js';

/**
 * One window, start to end, for a single dispatch or a range (the unit says which): quiesce, pass
 * count, resolve once, decline or prepare (one snapshot of the whole unit), lock (what the unit may
 * write, what the snapshot and verification read), the window whose passes each run the unit (or
 * one run of it), verification, account, release. Staging, the lock and the hash buffers are given
 * back whatever happens.
 * @throws {ReplayPluginError} when a strategy or pass-provider hook throws.
 * @throws {ArgumentError} when the tracker refuses the unit's arguments, or the unit cannot run at all.
 */
export async function runWindow<Reach extends WindowReach, Collected extends WindowCollected, Result extends DispatchResult>(
  engine: EngineContext,
  unit: WindowUnit<Reach, Collected, Result>,
): Promise<Result> {
  const clock = new HostClock();
  const { queue } = unit;
  const agent = queue.agent;
  const strategy: PluginIdentity = { kind: 'strategy', name: engine.strategy.name };
  const notes: string[] = [];
  let held: HeldClaim | undefined;
  let snapshot: Snapshot | undefined;
  let plan: VerificationPlan | undefined;
  let releaseError: unknown;
  let result: Result;
  let window: WindowOutcome | undefined;
  try {
    let quiesceMs = 0;
    if (engine.quiesce === 'agent') {
      held = await engine.lock.acquire({ queueId: queue.id, writes: 'everything', captures: 'everything' });
      quiesceMs = await quiesceAgent(agent, notes);
    }
    const prepared = prepareWindow(engine, unit);
    const { passesRequested, resolution } = prepared;
    let decline = prepared.decline;
    snapshot = prepared.snapshot;
    if (snapshot !== undefined && engine.verify !== 'off') {
      plan = new VerificationPlan(hashTargets(engine.tracker, agent.id, resolution), hashPoints(engine.verify, passesRequested), engine.hashBuffers);
    }
    const claim = dispatchClaim(queue.id, resolution, decline, snapshot, plan?.ranges ?? []);
    held ??= engine.lock.tryAcquire(claim) ?? (await engine.lock.acquire(claim));
    const { passes: provider, hashBuffers: buffers, phaseTimings } = engine;
    const target: WindowTarget = { queue, provider, buffers, phaseTimings, clock };
    const passOf = (pass: number) => unit.passPhase(target, pass);
    if (snapshot !== undefined) {
      notes.push(...snapshot.notes);
      const verification = plan && engine.verify !== 'off' ? { mode: engine.verify, plan } : undefined;
      // Every field listed: in Node 20 an object literal that begins with a spread and then adds
      // properties measured 5-12 us, on the path between two windows.
      window = await runReplayWindow({ queue, provider, buffers, phaseTimings, clock, passCount: passesRequested, snapshot, strategy, verification, notes }, passOf);
      if (window.kind === 'capture-failed') decline = captureFailed(strategy.name, window.error);
    }
    let once: RunOnceOutcome | undefined;
    if (window === undefined || window.kind === 'capture-failed') {
      once = await runOnce(target, rangesMayHaveWritten(claim.writes, engine.tracker.allocations(agent.id)), passOf(1));
    }
    const captured = snapshot;
    const account = captured && runPluginHook(strategy, 'snapshot.account', () => captured.account());
    const collected = unit.collect(provider, queue, [...(window?.phases ?? []), ...(once?.phases ?? [])]);
    const windowResult = assembleResult({
      strategyName: strategy.name,
      kernel: unit.kernel,
      mode: engine.verify,
      passesRequested,
      snapshot,
      account,
      window,
      once,
      decline,
      plan,
      collected: collected.whole,
      quiesceMs,
      lockWaitMs: held.waitedMs,
      clock,
      notes,
    });
    result = unit.shape(windowResult, collected);
  } finally {
    plan?.release();
    if (snapshot !== undefined) {
      const releasing = snapshot;
      try {
        const end = { completed: window?.kind === 'completed' };
        runPluginHook(strategy, 'snapshot.release', () => releasing.release(end));
      } catch (error) {
        releaseError = error;
      }
    }
    held?.release();
  }
  if (releaseError !== undefined) throw releaseError;
  return result;
}
