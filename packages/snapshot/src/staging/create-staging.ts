import { OutOfMemoryError } from '@kreplay/native';
import type { Agent, Runtime } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import type {
  Staging,
  StagingOptions,
  StagingResult,
  StagingTier,
  StagingTierChoice,
  StagingUsage,
} from '../staging-types.js';
import { validateStagingOptions, validateLeaseBytes } from './validate-staging.js';
import { SlabPool, isHostTier } from './slab-pool.js';
import { allocateSlab } from './staging-slab.js';
import type { StagingSlab } from './staging-slab.js';
import { roundSlabBytes } from './slab-size.js';

/**
 * Creates the staging of a process: pools of device and host memory kept across dispatches,
 * a host byte limit shared by all agents, and a device reserve per agent. The caller owns it:
 * dispose it (`dispose()`, or `using staging = createStaging(...)`) once its engines and strategies
 * are disposed; until then released staging stays pooled.
 * @throws ArgumentError when an option is not a valid byte count or reuse mode.
 */
export function createStaging(runtime: Runtime, tracker: Tracker, options: StagingOptions = {}): Staging {
  const settings = validateStagingOptions(options);
  const pool = new SlabPool();
  let hostHighWaterBytes = 0;
  const hostBytes = () => pool.bytes((slab) => isHostTier(slab.tier));

  function makeRoom(tier: StagingTier, agent: Agent, bytes: number): string | undefined {
    if (isHostTier(tier)) {
      if (settings.hostBytesLimit === null) return undefined;
      for (const slab of pool.idle((candidate) => isHostTier(candidate.tier))) {
        if (hostBytes() + bytes <= settings.hostBytesLimit) break;
        pool.drop(slab);
      }
      const held = hostBytes();
      return held + bytes <= settings.hostBytesLimit
        ? undefined
        : `host staging would hold ${held + bytes} bytes, over the host limit of ${settings.hostBytesLimit}`;
    }
    for (const slab of pool.idle((candidate) => candidate.tier === 'device' && candidate.agentId === agent.id)) {
      if (slab.bytes < bytes) pool.drop(slab);
    }
    const { freeBytes } = agent.memoryInfo();
    return freeBytes - bytes >= settings.deviceReserveBytes
      ? undefined
      : `agent ${agent.id} has ${freeBytes} free device bytes; ${bytes} more would cut into the reserve of ${settings.deviceReserveBytes}`;
  }

  function leaseIn(tier: StagingTier, agent: Agent, bytes: number): StagingSlab | string {
    const idle = settings.reuse === 'pooled' ? pool.findIdle(tier, agent.id, bytes) : undefined;
    if (idle) return idle;
    let slabBytes = settings.reuse === 'pooled' ? roundSlabBytes(bytes) : bytes;
    let refusal = makeRoom(tier, agent, slabBytes);
    if (refusal && slabBytes > bytes) {
      slabBytes = bytes; // the rounded slab does not fit; the exact size may
      refusal = makeRoom(tier, agent, slabBytes);
    }
    if (refusal) return refusal;
    try {
      const slab = allocateSlab(runtime, tracker, agent, tier, slabBytes);
      pool.add(slab);
      hostHighWaterBytes = Math.max(hostHighWaterBytes, hostBytes());
      return slab;
    } catch (error) {
      if (error instanceof OutOfMemoryError) return `${tier} memory ran out: ${error.message}`;
      throw error;
    }
  }

  function lease(agent: Agent, bytes: number, choice: StagingTierChoice): StagingResult {
    validateLeaseBytes(bytes);
    const tiers: StagingTier[] = choice === 'auto' ? ['device', 'host-pinned'] : [choice];
    const refusals: string[] = [];
    for (const tier of tiers) {
      const outcome = leaseIn(tier, agent, bytes);
      if (typeof outcome === 'string') {
        refusals.push(outcome);
        continue;
      }
      outcome.leased = true;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        outcome.leased = false;
        if (settings.reuse === 'per-dispatch') pool.drop(outcome);
      };
      return { kind: 'leased', lease: { tier, agentId: agent.id, address: outcome.address, bytes, release, [Symbol.dispose]: release } };
    }
    return { kind: 'declined', reason: `no staging for ${bytes} bytes (${choice}): ${refusals.join('; ')}` };
  }

  function usage(): StagingUsage {
    const deviceBytes: Record<number, number> = {};
    for (const slab of pool.all()) {
      if (slab.tier === 'device') deviceBytes[slab.agentId] = (deviceBytes[slab.agentId] ?? 0) + slab.bytes;
    }
    return {
      hostBytes: hostBytes(),
      hostHighWaterBytes,
      hostBytesLimit: settings.hostBytesLimit,
      deviceBytes,
      leasedBytes: pool.bytes((slab) => slab.leased),
      pooledBytes: pool.bytes((slab) => !slab.leased),
    };
  }

  const dispose = () => pool.all().forEach((slab) => pool.drop(slab));
  return {
    lease,
    usage,
    trim: () => pool.idle(() => true).forEach((slab) => pool.drop(slab)),
    dispose,
    [Symbol.dispose]: dispose,
  };
}
