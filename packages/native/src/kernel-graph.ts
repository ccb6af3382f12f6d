import type { Agent } from './agent.js';
import { DisposedError } from './errors/disposed-error.js';
import { nativeMessage } from './errors/native-message.js';
import type { NativeGraph } from './native-binding.js';
import type { GraphStep } from './runtime-types.js';

const graphs = new WeakMap<KernelGraph, { native: NativeGraph | undefined; frees: number }>();

/**
 * Kernel launches, memsets and copies recorded once ({@link Agent.createGraph}) and launched as one
 * unit ({@link Queue.enqueueGraph}), in order, each step after the one before. On the cuda driver it
 * is an instantiated CUDA graph; on the host driver its steps run one after another on the queue.
 */
export class KernelGraph implements Disposable {
  /** The agent whose queues launch it. */
  readonly agent: Agent;
  /** The steps, as given (frozen copies). */
  readonly steps: readonly GraphStep[];

  /** @internal Made by {@link Agent.createGraph}. */
  constructor(agent: Agent, steps: readonly GraphStep[], native: NativeGraph, frees: number) {
    this.agent = agent;
    this.steps = steps;
    graphs.set(this, { native, frees });
  }

  /** Whether {@link dispose} was called. */
  get disposed(): boolean {
    return graphs.get(this)?.native === undefined;
  }

  /** Releases the graph; launches already enqueued still run. Idempotent. */
  dispose(): void {
    const state = graphs.get(this);
    state?.native?.dispose();
    if (state) state.native = undefined;
  }

  /** Same as {@link dispose}. */
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
