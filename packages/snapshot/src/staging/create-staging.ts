import { describeHostStagingBudget, hostStagingBudget, OutOfMemoryError } from '@kreplay/native';
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

/** Device room is counted in whole slab granules, so a lease of the room is not rounded past it. */
const roomGranule = 64 * 1024;
/**
 * The share of an agent's device memory the room keeps back beyond the reserve: a snapshot across
 * tiers would otherwise take every free byte, and a GPU driver's queues allocate scratch memory of
 * their own (a cuda queue, its copy tables and hash scratch) when they first run a copy.
 */
const splitMarginFraction = 1 / 32;

/**
 * Creates the staging of a process: pools of device and host memory kept across dispatches,
 * a host byte limit shared by all agents (by default what this machine holds beside the runtime:
 * `hostStagingBudget` of `@kreplay/native`), and a device reserve and an optional device limit per agent. The caller owns it:
 * dispose it (`dispose()`, or `using staging = createStaging(...)`) once its engines and strategies
 * are disposed; until then released staging stays pooled.
 * @throws ArgumentError when an option is not a valid byte count or reuse mode.
 */
export function createStaging(runtime: Runtime, tracker: Tracker, options: StagingOptions = {}): Staging {
  const settings = validateStagingOptions(options);
  // Without a limit of the caller's, host staging holds what this machine holds beside the runtime.
  const budget = settings.hostBytesLimit === null ? hostStagingBudget(runtime) : null;
  const hostBytesLimit = settings.hostBytesLimit ?? budget!.bytes;
  const limitText = budget === null ? `the host limit of ${hostBytesLimit}` : `the host limit of ${hostBytesLimit} (by default what this machine holds: ${describeHostStagingBudget(budget)})`;
  const pool = new SlabPool();
  let hostHighWaterBytes = 0;
  const deviceHighWaterBytes: Record<number, number> = {};
  const deviceBytesOf = (agentId: number) => pool.bytes((slab) => slab.tier === 'device' && slab.agentId === agentId);
  const hostBytes = () => pool.bytes((slab) => isHostTier(slab.tier));

  function makeRoom(tier: StagingTier, agent: Agent, bytes: number): string | undefined {
    if (isHostTier(tier)) {
      for (const slab of pool.idle((candidate) => isHostTier(candidate.tier))) {
        if (hostBytes() + bytes <= hostBytesLimit) break;
        pool.drop(slab);
      }
      const held = hostBytes();
      return held + bytes <= hostBytesLimit ? undefined : `host staging would hold ${held + bytes} bytes, over ${limitText}`;
    }
    const limit = settings.deviceBytesLimit;
    if (limit !== null) {
      for (const slab of pool.idle((candidate) => candidate.tier === 'device' && candidate.agentId === agent.id)) {
        if (deviceBytesOf(agent.id) + bytes <= limit) break;
        pool.drop(slab);
      }
      const held = deviceBytesOf(agent.id);
      if (held + bytes > limit) return `device staging of agent ${agent.id} would hold ${held + bytes} bytes, over the device limit of ${limit}`;
    }
    // Idle device slabs too small for the lease are given back only when that makes it fit: a lease
    // that cannot fit anyway leaves the pool as it was (a snapshot across tiers reuses them).
    const smaller = pool.idle((candidate) => candidate.tier === 'device' && candidate.agentId === agent.id && candidate.bytes < bytes);
    const { freeBytes } = agent.memoryInfo();
    let room = freeBytes - settings.deviceReserveBytes;
    if (room + smaller.reduce((sum, slab) => sum + slab.bytes, 0) < bytes) {
      return `agent ${agent.id} has ${freeBytes} free device bytes; ${bytes} more would cut into the reserve of ${settings.deviceReserveBytes}`;
    }
    for (const slab of smaller) {
      if (room >= bytes) break;
      pool.drop(slab);
      room += slab.bytes;
    }
    return undefined;
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
      if (tier === 'device') deviceHighWaterBytes[agent.id] = Math.max(deviceHighWaterBytes[agent.id] ?? 0, deviceBytesOf(agent.id));
      else hostHighWaterBytes = Math.max(hostHighWaterBytes, hostBytes());
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
      hostBytesLimit,
      deviceBytes,
      deviceHighWaterBytes: { ...deviceHighWaterBytes },
      leasedBytes: pool.bytes((slab) => slab.leased),
      pooledBytes: pool.bytes((slab) => !slab.leased),
    };
  }

  function deviceRoomBytes(agent: Agent): number {
    const idle = pool.bytes((slab) => !slab.leased && slab.tier === 'device' && slab.agentId === agent.id);
    const { freeBytes, totalBytes } = agent.memoryInfo();
    const free = freeBytes + idle - settings.deviceReserveBytes - Math.ceil(totalBytes * splitMarginFraction);
    const limit = settings.deviceBytesLimit;
    const room = limit === null ? free : Math.min(free, limit - (deviceBytesOf(agent.id) - idle));
    return room <= 0 ? 0 : Math.floor(room / roomGranule) * roomGranule;
  }

  const dispose = () => pool.all().forEach((slab) => pool.drop(slab));
  return {
    lease,
    usage,
    deviceRoomBytes,
    trim: () => pool.idle(() => true).forEach((slab) => pool.drop(slab)),
    dispose,
    [Symbol.dispose]: dispose,
  };
}
