import type { KernelDescriptor, Queue } from '@kreplay/native';
import type { DispatchContext } from '@kreplay/snapshot';
import { collectPasses } from './collect-passes.js';
import { declineBeforePreparing } from './decline.js';
import type { DispatchRequest } from './dispatch-request.js';
import type { DispatchResult } from './dispatch-result.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { PassProvider } from './pass-provider.js';
import type { WindowPhase } from './window-phase.js';
import { passPhase, type WindowTarget } from './window-phases.js';
import type { WindowCollected, WindowReach, WindowUnit } from './window-unit.js';

/**
 * A single dispatch as a window's unit: the one-dispatch case of a range, without what only a
 * range has (copies before, a resolution made when it was requested, the provider's per-dispatch
 * hooks and `collectRange`, a pass scope): its pass is beginPass, its kernel, endPass.
 */
export class DispatchUnit implements WindowUnit<WindowReach, WindowCollected, DispatchResult> {
  readonly #request: DispatchRequest;

  constructor(request: DispatchRequest) {
    this.#request = request;
  }

  get queue(): Queue {
    return this.#request.queue;
  }

  get first(): DispatchRequest {
    return this.#request;
  }

  get kernel(): KernelDescriptor {
    return this.#request.kernel;
  }

  /** @throws {ArgumentError} when the tracker refuses the arguments. */
  reach(engine: ResolvedEngineOptions): WindowReach {
    const { queue, kernel, args } = this.#request;
    const resolution = engine.tracker.resolveArguments(queue.agent.id, kernel, args);
    return { resolution, decline: declineBeforePreparing(this.#request, resolution) };
  }

  strategyContext(engine: ResolvedEngineOptions, { resolution }: WindowReach): DispatchContext {
    const { queue, kernel, args } = this.#request;
    return { runtime: engine.runtime, agent: queue.agent, queue, kernel, args, tracker: engine.tracker, resolution, staging: engine.staging };
  }

  snapshotDeclineReason(reason: string): string {
    return reason;
  }

  passPhase(target: WindowTarget, pass: number): WindowPhase {
    return passPhase(target, this.#request, pass);
  }

  /** @throws {ReplayPluginError} when the provider's `collect` throws. */
  collect(provider: PassProvider, queue: Queue, phases: readonly WindowPhase[]): WindowCollected {
    return { whole: collectPasses(provider, queue, phases) };
  }

  shape(result: DispatchResult): DispatchResult {
    return result;
  }
}
