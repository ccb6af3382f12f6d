import type { KernelArguments, KernelDescriptor, KernelLaunch, Queue } from '@kreplay/native';

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
  /** The dispatch is a graph launch: it is run once, not replayed (graphs are not supported yet). */
  readonly graph?: boolean;
}
