import type { Agent, Runtime } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import type { StagingTier } from '../staging-types.js';

/** One piece of memory owned by staging: a device allocation or a host buffer. */
export interface StagingSlab {
  readonly tier: StagingTier;
  readonly agentId: number;
  readonly address: number;
  readonly bytes: number;
  leased: boolean;
  free(): void;
}

/**
 * Allocates a slab in `tier` for `agent` and tags it `excluded` in the tracker, so that no strategy
 * ever snapshots staging memory itself.
 * @throws OutOfMemoryError from the native runtime when the tier has no room.
 */
export function allocateSlab(
  runtime: Runtime,
  tracker: Tracker,
  agent: Agent,
  tier: StagingTier,
  bytes: number,
): StagingSlab {
  const memory = tier === 'device' ? agent.allocate(bytes) : runtime.allocateHost(bytes, { pinned: tier === 'host-pinned' });
  tracker.tag(memory.address, 'excluded');
  return {
    tier,
    agentId: agent.id,
    address: memory.address,
    bytes,
    leased: false,
    free: () => {
      if (!memory.freed) memory.free();
    },
  };
}
