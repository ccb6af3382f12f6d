import type { MemoryRange, Queue } from '@kreplay/native';
import type { ArgumentResolution, TrackedAllocation, Tracker } from '@kreplay/tracker';
import type { HashBufferLease, HashBufferPool } from './hash-buffer-pool.js';

/** The page size of verification hashes. */
export const verificationPageBytes = 64 * 1024;

/** One allocation verification hashes, and where its pages start in every hash list. */
export interface HashTarget {
  readonly allocationId: number;
  readonly address: number;
  readonly bytes: number;
  readonly firstPage: number;
  readonly pages: number;
}

/** A moment of the window whose memory is hashed: before pass 1, after a restore, after a pass. */
export type HashPoint =
  | { readonly kind: 'baseline' }
  | { readonly kind: 'restore'; readonly pass: number }
  | { readonly kind: 'pass'; readonly pass: number };

/**
 * Every tracked, non-excluded allocation of the agent, plus the host buffers the dispatch reaches:
 * what verification hashes (not only the snapshot's ranges, so a wrong write set is caught).
 */
export function hashTargets(tracker: Tracker, agentId: number, resolution: ArgumentResolution): HashTarget[] {
  const chosen = new Map<number, TrackedAllocation>();
  for (const allocation of tracker.allocations(agentId)) chosen.set(allocation.id, allocation);
  for (const { allocation } of resolution.reached) chosen.set(allocation.id, allocation);
  const targets: HashTarget[] = [];
  let firstPage = 0;
  const included = [...chosen.values()].filter((allocation) => !allocation.tags.has('excluded') && allocation.bytes > 0);
  for (const allocation of included.sort((a, b) => a.address - b.address)) {
    const pages = Math.ceil(allocation.bytes / verificationPageBytes);
    targets.push({ allocationId: allocation.id, address: allocation.address, bytes: allocation.bytes, firstPage, pages });
    firstPage += pages;
  }
  return targets;
}

/** The hashes of one window: a host buffer with one slot of page hashes per {@link HashPoint}. */
export class VerificationPlan {
  readonly ranges: readonly MemoryRange[];
  readonly pages: number;
  readonly #slots = new Map<string, number>();
  readonly #lease: HashBufferLease | undefined;

  constructor(
    readonly targets: readonly HashTarget[],
    points: readonly HashPoint[],
    buffers: HashBufferPool,
  ) {
    this.ranges = targets.map(({ address, bytes }) => ({ address, bytes }));
    this.pages = targets.reduce((total, target) => total + target.pages, 0);
    points.forEach((point, slot) => this.#slots.set(pointKey(point), slot));
    this.#lease = this.pages > 0 ? buffers.lease(points.length * this.pages * 8) : undefined;
  }

  /** Bytes one hash point reads. */
  get bytesPerPoint(): number {
    return this.targets.reduce((total, target) => total + target.bytes, 0);
  }

  /** Enqueues the hashing of every target into the point's slot. */
  enqueueHash(queue: Queue, point: HashPoint): void {
    if (this.#lease === undefined) return;
    queue.enqueueHashPages(this.ranges, verificationPageBytes, this.#lease.address + this.#offset(point));
  }

  /** The page hashes of a point, once the queue has completed its hashing. */
  read(point: HashPoint): BigUint64Array {
    if (this.#lease === undefined) return new BigUint64Array(0);
    const offset = this.#offset(point);
    const bytes = this.#lease.view().slice(offset, offset + this.pages * 8);
    return new BigUint64Array(bytes.buffer, 0, this.pages);
  }

  /** Give the host buffer back. Idempotent. */
  release(): void {
    this.#lease?.release();
  }

  #offset(point: HashPoint): number {
    const slot = this.#slots.get(pointKey(point));
    if (slot === undefined) throw new RangeError(`[replay] [verification] no hash slot for ${pointKey(point)}. This is a bug in @kreplay/replay.`);
    return slot * this.pages * 8;
  }
}

/** A stable name of a hash point. */
export function pointKey(point: HashPoint): string {
  return point.kind === 'baseline' ? 'baseline' : `${point.kind}-${point.pass}`;
}
