import { UnsupportedError } from '@kreplay/native';
import type { Queue, Runtime } from '@kreplay/native';
import type { CheckpointProvider, CheckpointSession } from './checkpoint-provider.js';

/**
 * What the CUDA driver of `@kreplay/native` is to offer as `runtime.checkpoint` once it wraps the
 * CUPTI Checkpoint API (cupti_checkpoint.h): a session per queue whose `save` and `restore` run
 * `cuptiCheckpointSave` and `cuptiCheckpointRestore` on the queue's context and resolve once done.
 */
export interface NativeCheckpointCapability {
  /** Why checkpoints cannot be taken here (e.g. libcheckpoint.so missing), or null when they can. */
  unavailableReason?(): string | null;
  open(queue: Queue): Promise<CheckpointSession>;
}

function capabilityOf(runtime: Runtime): NativeCheckpointCapability | undefined {
  const capability = (runtime as unknown as { checkpoint?: Partial<NativeCheckpointCapability> }).checkpoint;
  return typeof capability?.open === 'function' ? (capability as NativeCheckpointCapability) : undefined;
}

/**
 * The CUPTI Checkpoint API as a baseline: available on a CUDA runtime that offers
 * {@link NativeCheckpointCapability}; on every other runtime it reports why not.
 */
export function cuptiCheckpointProvider(): CheckpointProvider {
  return {
    name: 'cupti-checkpoint',
    unavailableReason(runtime) {
      if (runtime.driver !== 'cuda') return `not available on the ${runtime.driver} driver: the CUPTI Checkpoint API exists only on CUDA`;
      const capability = capabilityOf(runtime);
      if (capability === undefined) return 'not available on this driver: the cuda driver of @kreplay/native offers no checkpoint capability';
      return capability.unavailableReason?.() ?? null;
    },
    open(queue) {
      const runtime = queue.agent.runtime;
      const capability = capabilityOf(runtime);
      if (capability !== undefined) return capability.open(queue);
      const message = `[bench] [checkpoint] the ${runtime.driver} runtime offers no checkpoint capability. Check unavailableReason() before open().`;
      return Promise.reject(new UnsupportedError({ packageName: 'bench', component: 'checkpoint', driver: runtime.driver, feature: 'checkpoint', message }));
    },
  };
}
