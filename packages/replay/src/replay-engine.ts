import { DisposedError } from '@kreplay/native';
import { isGraphRequest, type EngineDispatchRequest } from './dispatch-request.js';
import { validateGraphRequest } from './graph-dispatch.js';
import { GraphUnit } from './graph-unit.js';
import type { DispatchResult } from './dispatch-result.js';
import { resolveEngineOptions, type ReplayEngineOptions } from './engine-options.js';
import { HashBufferPool } from './hash-buffer-pool.js';
import { acceptRange } from './accept-range.js';
import { DispatchUnit } from './dispatch-unit.js';
import type { EngineContext } from './engine-context.js';
import { rangeDispatchRequests, type RangeRequest } from './range-request.js';
import type { RangeResult } from './range-result.js';
import { RangeUnit } from './range-unit.js';
import { runWindow } from './run-window.js';
import { leaseRuntimeWindowLocks } from './runtime-window-locks.js';
import { validateRequest } from './validate-request.js';
import type { WindowCollected, WindowReach, WindowUnit } from './window-unit.js';

/** Replays dispatches: each through one replay window. */
export interface ReplayEngine extends AsyncDisposable {
  /**
   * Runs one dispatch through the replay window: every pass starts from the memory pass 1 saw, and
   * afterwards memory is as one run of the kernel leaves it. A graph launch (`{ queue, graph }`, a
   * KernelGraph from agent.createGraph) is one workload: each pass launches the whole graph, and
   * what any of its steps may write (kernels' writable arguments, memsets' and copies'
   * destinations) is captured once and restored between passes. Declined dispatches (graph launches,
   * cross-device work, unresolvable arguments, snapshots over budget, a failed capture) run exactly
   * once, with the reason in the result. Device failures are reported in the result, not thrown.
   * Windows on one queue run one after another; windows on other queues wait only when they may
   * write what this one captures (or the other way round). This holds across every engine over the
   * same runtime: they share one lock and one order per queue.
   * @throws {ArgumentError} (rejects) when the request is malformed (a graph of another agent, a
   * disposed graph) or the tracker refuses its arguments.
   * @throws {ReplayPluginError} (rejects) when a strategy or pass-provider hook throws.
   * @throws {DisposedError} (rejects) after `dispose()`.
   */
  dispatch(request: EngineDispatchRequest): Promise<DispatchResult>;
  /**
   * Runs a sequence of dispatches on one queue through one replay window: captured once before the
   * first, the whole sequence run in every pass (each dispatch sees what the earlier ones wrote),
   * restored between passes. Every pass starts from the same memory, and afterwards memory is as
   * one run of the sequence leaves it. The strategy sees one dispatch context for the whole range
   * (see `DispatchContext.dispatches`). A dispatch's `before` copies run right before it in every
   * run of the range, and the memory they write is part of what the range writes. Declined ranges (any dispatch that would be declined alone,
   * memory a dispatch reaches freed or allocated again after this call, a snapshot over budget) run
   * the sequence exactly once, with the reason in the result.
   * @throws {ArgumentError} (rejects) when the request is malformed, a dispatch is a graph launch
   * (a KernelGraph: dispatch it alone with `dispatch()`), a dispatch names another queue,
   * the tracker refuses a dispatch's arguments, or memory a dispatch reaches was freed after this
   * call (before the range's turn on its queue came) and is not allocated again.
   * @throws {ReplayPluginError} (rejects) when a strategy or pass-provider hook throws.
   * @throws {DisposedError} (rejects) after `dispose()`.
   */
  dispatchRange(request: RangeRequest): Promise<RangeResult>;
  /**
   * Waits for the dispatches in flight, then frees the engine's own buffers and its share of the
   * runtime's window locks. The strategy, staging, tracker and runtime belong to the caller and are
   * left alone. Idempotent.
   */
  dispose(): Promise<void>;
}

/**
 * Creates a replay engine over a runtime, its tracker, staging, a snapshot strategy and a pass provider.
 * @throws {ArgumentError} when an option is missing or invalid.
 */
export function createReplayEngine(options: ReplayEngineOptions): ReplayEngine {
  const settings = resolveEngineOptions(options);
  const locks = leaseRuntimeWindowLocks(settings.runtime);
  const context: EngineContext = {
    ...settings,
    lock: locks.lock,
    hashBuffers: new HashBufferPool(settings.runtime, settings.tracker),
  };
  const { serializer } = locks;
  const inFlight = new Set<Promise<unknown>>();
  let disposing: Promise<void> | undefined;
  /** Runs the unit's window after those queued before it on its queue; in flight until it settles. */
  const schedule = <Reach extends WindowReach, Collected extends WindowCollected, Result extends DispatchResult>(
    unit: WindowUnit<Reach, Collected, Result>,
  ): Promise<Result> => {
    const running = serializer.run(unit.queue.id, () => runWindow(context, unit));
    inFlight.add(running);
    const forget = () => inFlight.delete(running);
    running.then(forget, forget);
    return running;
  };

  const engine: ReplayEngine = {
    dispatch(request) {
      if (disposing !== undefined) return Promise.reject(disposedError());
      try {
        if (isGraphRequest(request)) validateGraphRequest(request, settings.runtime);
        else validateRequest(request, settings.runtime);
      } catch (error) {
        return Promise.reject(error);
      }
      return schedule(isGraphRequest(request) ? new GraphUnit(request) : new DispatchUnit(request));
    },
    dispatchRange(request) {
      if (disposing !== undefined) return Promise.reject(disposedError());
      let range;
      try {
        range = acceptRange(settings, rangeDispatchRequests(request, settings.runtime));
      } catch (error) {
        return Promise.reject(error);
      }
      return schedule(new RangeUnit(range));
    },
    dispose() {
      disposing ??= Promise.allSettled([...inFlight]).then(() => {
        locks.release();
        return context.hashBuffers.dispose();
      });
      return disposing;
    },
    [Symbol.asyncDispose]: () => engine.dispose(),
  };
  return engine;
}

function disposedError(): DisposedError {
  return new DisposedError({
    packageName: 'replay',
    component: 'engine',
    objectName: 'ReplayEngine',
    message: '[replay] [engine] dispatch() was called on a disposed engine. Create a new engine with createReplayEngine().',
  });
}
