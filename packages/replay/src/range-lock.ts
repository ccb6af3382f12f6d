import { rangeSetsOverlap, type RangeSet } from './memory-ranges.js';

/** What one window holds while it runs: what its passes may write and what its snapshot captures and restores. */
export interface RangeClaim {
  readonly queueId: number;
  readonly writes: RangeSet;
  readonly captures: RangeSet;
}

/** A held claim; `release` is idempotent. */
export interface HeldClaim {
  /** Host milliseconds spent waiting for conflicting windows. */
  readonly waitedMs: number;
  release(): void;
}

interface Holder {
  readonly claim: RangeClaim;
  readonly released: Promise<void>;
}

/**
 * Two windows on different queues conflict when one may write what the other captures (its
 * restores would undo the writes, or its capture would see them half done).
 */
export function claimsConflict(left: RangeClaim, right: RangeClaim): boolean {
  if (left.queueId === right.queueId) return false;
  return rangeSetsOverlap(left.writes, right.captures) || rangeSetsOverlap(right.writes, left.captures);
}

/**
 * The engine's lock over memory ranges: a window waits only for windows on other queues it
 * conflicts with; every other window runs on.
 */
export class RangeLock {
  readonly #holders = new Set<Holder>();

  /** Waits until no held claim conflicts with `claim`, then holds it. */
  async acquire(claim: RangeClaim): Promise<HeldClaim> {
    const started = performance.now();
    for (;;) {
      const blockers = this.#blockers(claim);
      if (blockers.length === 0) break;
      await Promise.all(blockers.map((holder) => holder.released));
    }
    return this.#hold(claim, performance.now() - started);
  }

  /** Holds `claim` at once when nothing held conflicts with it (no wait, no promise); else undefined. */
  tryAcquire(claim: RangeClaim): HeldClaim | undefined {
    return this.#blockers(claim).length === 0 ? this.#hold(claim, 0) : undefined;
  }

  #blockers(claim: RangeClaim): Holder[] {
    const blockers: Holder[] = [];
    for (const holder of this.#holders) if (claimsConflict(holder.claim, claim)) blockers.push(holder);
    return blockers;
  }

  #hold(claim: RangeClaim, waitedMs: number): HeldClaim {
    let release!: () => void;
    const holder: Holder = { claim, released: new Promise<void>((resolve) => (release = resolve)) };
    this.#holders.add(holder);
    let held = true;
    return {
      waitedMs,
      release: () => {
        if (!held) return;
        held = false;
        this.#holders.delete(holder);
        release();
      },
    };
  }

  /** How many claims are held now. */
  get size(): number {
    return this.#holders.size;
  }
}
