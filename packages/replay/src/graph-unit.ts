import type { KernelDescriptor, Queue } from '@kreplay/native';
import type { DispatchContext } from '@kreplay/snapshot';
import { collectPasses } from './collect-passes.js';
import { declineBeforePreparing } from './decline.js';
import type { GraphDispatchRequest } from './dispatch-request.js';
import type { DispatchResult } from './dispatch-result.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import { graphUnit, type GraphUnit as GraphReachParts } from './graph-dispatch.js';
import type { PassProvider } from './pass-provider.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { phase, type WindowPhase } from './window-phase.js';
import type { WindowTarget } from './window-phases.js';
import type { WindowCollected, WindowReach, WindowUnit } from './window-unit.js';

/** What a graph launch reaches: the merge of its steps, and each kernel step for the strategy. */
interface GraphReach extends WindowReach {
  readonly parts: GraphReachParts;
}

/**
 * A graph launch as a window's unit: one workload. It reaches what all its steps reach (kernels'
 * arguments, memsets' and copies' destinations); its pass is beginPass, the graph's launch, endPass;
 * providers see one dispatch per pass.
 */
export class GraphUnit implements WindowUnit<GraphReach, WindowCollected, DispatchResult> {
  readonly #request: GraphDispatchRequest;
  #kernel: KernelDescriptor | undefined;

  constructor(request: GraphDispatchRequest) {
    this.#request = request;
  }

  get queue(): Queue {
    return this.#request.queue;
  }

  get first(): GraphDispatchRequest {
    return this.#request;
  }

  /** A descriptor naming the graph by its kernels: `graph (a, b; 5 steps)`. */
  get kernel(): KernelDescriptor {
    this.#kernel ??= graphUnit(undefined, this.#request.graph).kernel;
    return this.#kernel;
  }

  /** @throws {ArgumentError} when the tracker refuses a kernel step's arguments. */
  reach(engine: ResolvedEngineOptions): GraphReach {
    const parts = graphUnit(engine.tracker, this.#request.graph);
    const decline = declineBeforePreparing({ kernel: parts.kernel, crossDevice: this.#request.crossDevice }, parts.resolution);
    return { resolution: parts.resolution, decline, parts };
  }

  strategyContext(engine: ResolvedEngineOptions, { resolution, parts }: GraphReach): DispatchContext {
    const { queue } = this.#request;
    const { kernel, args, dispatches } = parts;
    return { runtime: engine.runtime, agent: queue.agent, queue, kernel, args, tracker: engine.tracker, resolution, staging: engine.staging, dispatches };
  }

  snapshotDeclineReason(reason: string): string {
    return `${reason} (for a graph of ${this.#request.graph.steps.length} steps)`;
  }

  passPhase(target: WindowTarget, pass: number): WindowPhase {
    const provider: PluginIdentity = { kind: 'pass provider', name: target.provider.name };
    const { graph } = this.#request;
    return phase('pass', pass, () => {
      runPluginHook(provider, 'beginPass', () => target.provider.beginPass(pass, target.queue));
      target.queue.enqueueGraph(graph);
      runPluginHook(provider, 'endPass', () => target.provider.endPass(pass, target.queue));
    });
  }

  /** @throws {ReplayPluginError} when the provider's `collect` throws. */
  collect(provider: PassProvider, queue: Queue, phases: readonly WindowPhase[]): WindowCollected {
    return { whole: collectPasses(provider, queue, phases) };
  }

  shape(result: DispatchResult): DispatchResult {
    return result;
  }
}
