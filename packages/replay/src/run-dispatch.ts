import type { KernelLaunch } from '@kreplay/native';
import type { Snapshot } from '@kreplay/snapshot';
import { assembleResult } from './assemble-result.js';
import { captureFailed } from './decline.js';
import { dispatchClaim, rangesMayHaveWritten } from './dispatch-claim.js';
import { isGraphRequest, type EngineDispatchRequest } from './dispatch-request.js';
import type { DispatchResult } from './dispatch-result.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { HashBufferPool } from './hash-buffer-pool.js';
import { HostClock } from './host-clock.js';
import { collectPasses } from './collect-passes.js';
import { prepareDispatch } from './prepare-dispatch.js';
import { quiesceAgent } from './quiesce.js';
import type { HeldClaim, RangeLock } from './range-lock.js';
import { runOnce, type RunOnceOutcome } from './run-once.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { runReplayWindow, type WindowOutcome } from './replay-window.js';
import { hashTargets, VerificationPlan } from './verification-plan.js';
import { hashPoints } from './window-phases.js';

/** The engine's settings and shared state, as one dispatch sees them. */
export interface EngineContext extends ResolvedEngineOptions {
  readonly lock: RangeLock;
  readonly hashBuffers: HashBufferPool;
}

/**
 * One dispatch, start to end: quiesce, pass count, resolve arguments once, decline or prepare,
 * lock, the window (or one run), verification, account, release. Staging, the lock and the hash
 * buffers are given back whatever happens.
 * @throws {ReplayPluginError} when a strategy or pass-provider hook throws.
 * @throws {ArgumentError} when the tracker refuses the kernel's arguments.
 */
export async function runDispatch(engine: EngineContext, request: EngineDispatchRequest): Promise<DispatchResult> {
  const clock = new HostClock();
  const { queue } = request;
  const graph = isGraphRequest(request) ? request.graph : undefined;
  const launch = graph === undefined ? (request as { launch?: KernelLaunch }).launch : undefined;
  const agent = queue.agent;
  const strategy: PluginIdentity = { kind: 'strategy', name: engine.strategy.name };
  const notes: string[] = [];
  let held: HeldClaim | undefined;
  let snapshot: Snapshot | undefined;
  let plan: VerificationPlan | undefined;
  let releaseError: unknown;
  let result: DispatchResult;
  let window: WindowOutcome | undefined;
  try {
    let quiesceMs = 0;
    if (engine.quiesce === 'agent') {
      held = await engine.lock.acquire({ queueId: queue.id, writes: 'everything', captures: 'everything' });
      quiesceMs = await quiesceAgent(agent, notes);
    }
    const prepared = prepareDispatch(engine, request);
    const { passesRequested, resolution, kernel, args } = prepared;
    let decline = prepared.decline;
    snapshot = prepared.snapshot;
    if (snapshot !== undefined && engine.verify !== 'off') {
      plan = new VerificationPlan(hashTargets(engine.tracker, agent.id, resolution), hashPoints(engine.verify, passesRequested), engine.hashBuffers);
    }
    const claim = dispatchClaim(queue.id, resolution, decline, snapshot, plan?.ranges ?? []);
    held ??= engine.lock.tryAcquire(claim) ?? (await engine.lock.acquire(claim));
    const target = { queue, kernel, args, launch, graph, provider: engine.passes, buffers: engine.hashBuffers, phaseTimings: engine.phaseTimings, clock };
    if (snapshot !== undefined) {
      notes.push(...snapshot.notes);
      const verification = plan && engine.verify !== 'off' ? { mode: engine.verify, plan } : undefined;
      // Every field listed: in Node 20 an object literal that begins with a spread and then adds
      // properties measured 5-12 us, on the path between two windows.
      const { provider, buffers, phaseTimings } = target;
      window = await runReplayWindow({ queue, kernel, args, launch, graph, provider, buffers, phaseTimings, clock, passCount: passesRequested, snapshot, strategy, verification, notes });
      if (window.kind === 'capture-failed') decline = captureFailed(strategy.name, window.error);
    }
    let once: RunOnceOutcome | undefined;
    if (window === undefined || window.kind === 'capture-failed') {
      once = await runOnce(target, rangesMayHaveWritten(claim.writes, engine.tracker.allocations(agent.id)));
    }
    const captured = snapshot;
    const account = captured && runPluginHook(strategy, 'snapshot.account', () => captured.account());
    const collected = collectPasses(engine.passes, queue, [...(window?.phases ?? []), ...(once?.phases ?? [])]);
    result = assembleResult({
      strategyName: strategy.name,
      kernel,
      mode: engine.verify,
      passesRequested,
      snapshot,
      account,
      window,
      once,
      decline,
      plan,
      collected,
      quiesceMs,
      lockWaitMs: held.waitedMs,
      clock,
      notes,
    });
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
