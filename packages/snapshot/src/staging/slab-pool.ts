import type { StagingTier } from '../staging-types.js';
import type { StagingSlab } from './staging-slab.js';

/** The slabs staging holds, leased or idle, with the counts budgets need. */
export class SlabPool {
  readonly #slabs = new Set<StagingSlab>();

  /** The smallest idle slab of `tier` on `agentId` holding at least `bytes`. */
  findIdle(tier: StagingTier, agentId: number, bytes: number): StagingSlab | undefined {
    let best: StagingSlab | undefined;
    for (const slab of this.#slabs) {
      if (slab.leased || slab.tier !== tier || slab.agentId !== agentId || slab.bytes < bytes) continue;
      if (!best || slab.bytes < best.bytes) best = slab;
    }
    return best;
  }

  add(slab: StagingSlab): void {
    this.#slabs.add(slab);
  }

  /** Frees and forgets a slab. */
  drop(slab: StagingSlab): void {
    this.#slabs.delete(slab);
    slab.free();
  }

  /** Idle slabs matching `filter`, largest first (the first to give back under pressure). */
  idle(filter: (slab: StagingSlab) => boolean): StagingSlab[] {
    return [...this.#slabs].filter((slab) => !slab.leased && filter(slab)).sort((a, b) => b.bytes - a.bytes);
  }

  /** Sum of the bytes of the slabs matching `filter`. */
  bytes(filter: (slab: StagingSlab) => boolean): number {
    let total = 0;
    for (const slab of this.#slabs) if (filter(slab)) total += slab.bytes;
    return total;
  }

  all(): StagingSlab[] {
    return [...this.#slabs];
  }
}

/** True for the tiers that live in host RAM. */
export function isHostTier(tier: StagingTier): boolean {
  return tier !== 'device';
}
