import type { KernelArguments, KernelDescriptor, Queue } from '@kreplay/native';

/** One kernel dispatch handed to the engine. */
export interface DispatchRequest {
  /** The queue the dispatch (and its capture, passes and restores) runs on. */
  readonly queue: Queue;
  readonly kernel: KernelDescriptor;
  readonly args: KernelArguments;
  /** The kernel takes part in cross-device work (a collective): it is run once, not replayed. */
  readonly crossDevice?: boolean;
  /** The dispatch is a graph launch: it is run once, not replayed (graphs are not supported yet). */
  readonly graph?: boolean;
}
