import type { Snapshot } from '@kreplay/snapshot';
import { assembleResult } from './assemble-result.js';
import { collectRangePasses } from './collect-passes.js';
import { captureFailed } from './decline.js';
import { dispatchClaim, rangesMayHaveWritten } from './dispatch-claim.js';
import { HostClock } from './host-clock.js';
import { prepareRange, rangeKernel, type AcceptedRange } from './prepare-range.js';
import { quiesceAgent } from './quiesce.js';
import type { HeldClaim } from './range-lock.js';
import { rangePassPhase, type RangeTarget } from './range-phases.js';
import type { RangeResult } from './range-result.js';
import { runOnce, type RunOnceOutcome } from './run-once.js';
import type { EngineContext } from './run-dispatch.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { runReplayPhases, type WindowOutcome } from './replay-window.js';
import { hashTargets, VerificationPlan } from './verification-plan.js';
import { hashPoints, replayPhases, type ReplayWindow } from './window-phases.js';

/**
 * One range, start to end, as {@link runDispatch} does one dispatch: quiesce, pass count, resolve
 * and decline or prepare (one snapshot of the whole sequence), lock (what every dispatch may
 * write, what the snapshot and verification read), the window whose passes each run the whole
 * sequence (or one run of it), verification, account, release.
 * @throws {ReplayPluginError} when a strategy or pass-provider hook throws.
 * @throws {ArgumentError} when the tracker refuses a dispatch's arguments.
 */
export async function runRange(engine: EngineContext, range: AcceptedRange): Promise<RangeResult> {
  const clock = new HostClock();
  const { dispatches } = range;
  const { queue } = dispatches[0]!;
  const agent = queue.agent;
  const strategy: PluginIdentity = { kind: 'strategy', name: engine.strategy.name };
  const notes: string[] = [];
  let held: HeldClaim | undefined;
  let snapshot: Snapshot | undefined;
  let plan: VerificationPlan | undefined;
  let releaseError: unknown;
  let result: RangeResult;
  let window: WindowOutcome | undefined;
  try {
    let quiesceMs = 0;
    if (engine.quiesce === 'agent') {
      held = await engine.lock.acquire({ queueId: queue.id, writes: 'everything', captures: 'everything' });
      quiesceMs = await quiesceAgent(agent, notes);
    }
    const prepared = prepareRange(engine, range);
    const { passesRequested, resolution } = prepared;
    let decline = prepared.decline;
    snapshot = prepared.snapshot;
    if (snapshot !== undefined && engine.verify !== 'off') {
      plan = new VerificationPlan(hashTargets(engine.tracker, agent.id, resolution), hashPoints(engine.verify, passesRequested), engine.hashBuffers);
    }
    const claim = dispatchClaim(queue.id, resolution, decline, snapshot, plan?.ranges ?? []);
    held ??= engine.lock.tryAcquire(claim) ?? (await engine.lock.acquire(claim));
    const { kernel, args } = dispatches[0]!;
    const target: RangeTarget = {
      queue,
      kernel,
      args,
      provider: engine.passes,
      buffers: engine.hashBuffers,
      phaseTimings: engine.phaseTimings,
      clock,
      dispatches,
      scope: Object.freeze({ dispatches: dispatches.length }),
    };
    const passOf = (pass: number) => rangePassPhase(target, pass);
    if (snapshot !== undefined) {
      notes.push(...snapshot.notes);
      const verification = plan && engine.verify !== 'off' ? { mode: engine.verify, plan } : undefined;
      const rangeWindow: ReplayWindow = { ...target, passCount: passesRequested, snapshot, strategy, verification, notes };
      window = await runReplayPhases(rangeWindow, replayPhases(rangeWindow, passOf));
      if (window.kind === 'capture-failed') decline = captureFailed(strategy.name, window.error);
    }
    let once: RunOnceOutcome | undefined;
    if (window === undefined || window.kind === 'capture-failed') {
      once = await runOnce(target, rangesMayHaveWritten(claim.writes, engine.tracker.allocations(agent.id)), passOf(1));
    }
    const captured = snapshot;
    const account = captured && runPluginHook(strategy, 'snapshot.account', () => captured.account());
    const phases = [...(window?.phases ?? []), ...(once?.phases ?? [])];
    const { whole, perDispatch } = collectRangePasses(engine.passes, queue, phases, dispatches.length);
    const unit = assembleResult({
      strategyName: strategy.name,
      kernel: rangeKernel(dispatches),
      mode: engine.verify,
      passesRequested,
      snapshot,
      account,
      window,
      once,
      decline,
      plan,
      collected: whole,
      quiesceMs,
      lockWaitMs: held.waitedMs,
      clock,
      notes,
    });
    result = {
      ...unit,
      dispatches: dispatches.map((dispatch, index) => ({
        kernelName: dispatch.kernel.name,
        ...(perDispatch === undefined ? {} : { collected: perDispatch[index] }),
      })),
    };
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
