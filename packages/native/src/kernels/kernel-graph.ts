import { DisposedError } from '../errors/disposed-error.js';
import { nativeMessage } from '../errors/native-message.js';
import type { NativeGraph } from '../addon/native-binding.js';
import type { Agent, KernelGraph } from '../runtime/runtime-objects.js';
import type { GraphStep } from '../runtime/runtime-types.js';

const graphs = new WeakMap<KernelGraph, { native: NativeGraph | undefined; frees: number }>();

/** The {@link KernelGraph}s of an agent (runtime-objects.ts describes each member). @internal */
export class KernelGraphHandle implements KernelGraph {
  readonly agent: Agent;
  readonly steps: readonly GraphStep[];

  /** @internal Made by {@link Agent.createGraph}. */
  constructor(agent: Agent, steps: readonly GraphStep[], native: NativeGraph, frees: number) {
    this.agent = agent;
    this.steps = steps;
    graphs.set(this, { native, frees });
  }

  get disposed(): boolean {
    return graphs.get(this)?.native === undefined;
  }

  dispose(): void {
    const state = graphs.get(this);
    state?.native?.dispose();
    if (state) state.native = undefined;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

/**
 * The addon's graph behind a KernelGraph and the runtime's free count when its steps were last checked.
 * @throws {DisposedError} when the graph was disposed. @internal
 */
export function nativeGraphOf(graph: KernelGraph): { readonly native: NativeGraph; frees: number } {
  const state = graphs.get(graph);
  if (state?.native === undefined) {
    throw new DisposedError({
      packageName: 'native',
      component: 'queue',
      objectName: 'KernelGraph',
      message: nativeMessage('queue', 'enqueueGraph() was given a disposed graph', 'Create a new graph with agent.createGraph()'),
    });
  }
  return state as { readonly native: NativeGraph; frees: number };
}
