import type { KernelArguments, KernelDescriptor, KernelGraph, KernelLaunch, Queue } from '@kreplay/native';

/** One kernel dispatch handed to the engine. */
export interface DispatchRequest {
  /** The queue the dispatch (and its capture, passes and restores) runs on. */
  readonly queue: Queue;
  readonly kernel: KernelDescriptor;
  readonly args: KernelArguments;
  /** The grid and block of a user kernel (runtime.loadKernel); absent for a built-in kernel. */
  readonly launch?: KernelLaunch;
  /** The kernel takes part in cross-device work (a collective): it is run once, not replayed. */
  readonly crossDevice?: boolean;
  /**
   * The dispatch stands for a graph launch the engine cannot see into: it is run once, not
   * replayed. To replay a graph, dispatch a {@link GraphDispatchRequest} instead.
   */
  readonly graph?: boolean;
}

/**
 * A graph launch handed to the engine ({@link ReplayEngine.dispatch}): the graph (agent.createGraph)
 * launched as one workload in every pass, with what all its steps may write restored between passes.
 */
export interface GraphDispatchRequest {
  /** The queue the graph (and its capture, passes and restores) runs on; of the graph's agent. */
  readonly queue: Queue;
  readonly graph: KernelGraph;
  /** The graph takes part in cross-device work: it is run once, not replayed. */
  readonly crossDevice?: boolean;
}

/** What `dispatch()` takes: a kernel dispatch or a graph launch. */
export type EngineDispatchRequest = DispatchRequest | GraphDispatchRequest;

/** Whether a request launches a graph (its `graph` is a KernelGraph, not the flag). */
export function isGraphRequest(request: EngineDispatchRequest): request is GraphDispatchRequest {
  return typeof request.graph === 'object' && request.graph !== null;
}
