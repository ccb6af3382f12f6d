import type { HostBuffer } from '@kreplay/native';
import type { DispatchContext } from './snapshot-strategy.js';
import type { StagingTierChoice } from './staging-types.js';
import type { CandidateSet } from './candidate-set.js';
import type { CandidateRange } from './candidate-ranges.js';
import { layOutMirror } from './mirror-layout.js';
import { MirrorSet } from './mirror-set.js';
import { MirrorPart } from './mirror-part.js';
import { leaseAcrossTiers } from './lease-across-tiers.js';
import { TrackerFreeWatch } from './tracker-free-watch.js';

/** A mirror set for one dispatch (cached, or temporary when the cached one is held by another window). */
export type MirrorAcquisition =
  | { readonly kind: 'acquired'; readonly set: MirrorSet }
  | { readonly kind: 'declined'; readonly reason: string };

/**
 * The mirror sets a dirty-pages strategy keeps across dispatches, least recently used first. A set
 * is keyed by its candidate ranges. It is dropped (its staging given back, its readback buffer
 * freed) as soon as the tracker reports that one of its allocations was freed, whichever one of
 * them; a set a window holds then goes when the window releases it. A set whose address was reused
 * by a new allocation is dropped at the next dispatch over it, too.
 */
export class MirrorCache {
  readonly #sets = new Map<string, MirrorSet>();
  readonly #frees = new TrackerFreeWatch((tracker, allocationId) => this.#dropFreed(tracker, allocationId));

  constructor(
    private readonly maxSets: number,
    private readonly tier: StagingTierChoice,
    private readonly pageBytes: number,
  ) {}

  /** A mirror set for `ranges`, marked in use until the snapshot releases it. */
  acquire(dispatch: DispatchContext, candidates: CandidateSet): MirrorAcquisition {
    const { key, ranges, allocationIds } = candidates;
    const existing = this.#sets.get(key);
    if (existing && !sameAllocations(existing.allocationIds, allocationIds)) this.#drop(existing);
    else if (existing && !existing.inUse) {
      this.#sets.delete(key);
      this.#sets.set(key, existing);
      existing.inUse = true;
      return { kind: 'acquired', set: existing };
    }
    const created = this.#create(dispatch, key, ranges, allocationIds);
    if (typeof created === 'string') return { kind: 'declined', reason: created };
    created.inUse = true;
    if (!this.#sets.has(key)) {
      this.#frees.watch(dispatch.tracker);
      this.#sets.set(key, created);
      this.#evictBeyond(this.maxSets);
    }
    return { kind: 'acquired', set: created };
  }

  #create(
    dispatch: DispatchContext,
    key: string,
    ranges: readonly CandidateRange[],
    allocationIds: readonly number[],
  ): MirrorSet | string {
    const layout = (part: readonly CandidateRange[]) => layOutMirror(part, this.pageBytes);
    const stagingBytes = (part: readonly CandidateRange[]) => layout(part).bytes;
    const lease = () => leaseAcrossTiers(dispatch, ranges, this.tier, this.pageBytes, stagingBytes, true);
    let staged = lease();
    while (staged.kind === 'declined' && this.#evictOldestIdle()) staged = lease();
    if (staged.kind === 'declined') return `dirty-pages mirror: ${staged.reason}`;
    const layouts = staged.parts.map((part) => layout(part.ranges));
    const offsets = layouts.map((_, index) => layouts.slice(0, index).reduce((sum, each) => sum + align8(each.controlBytes), 0));
    const readbackBytes = layouts.reduce((sum, each) => sum + align8(each.controlBytes), 0);
    let readback: HostBuffer;
    try {
      readback = dispatch.runtime.allocateHost(readbackBytes, { pinned: true });
    } catch (error) {
      for (const part of staged.parts) {
        part.lease.release();
        part.restoreCache?.release();
      }
      throw error;
    }
    dispatch.tracker.tag(readback.address, 'excluded');
    const parts = staged.parts.map(
      (part, index) => new MirrorPart(part.ranges, layouts[index]!, part.lease, readback, offsets[index]!, part.restoreCache),
    );
    return new MirrorSet(key, dispatch.tracker, ranges, allocationIds, parts, readback);
  }

  /** Drops the least recently used set no window holds; false when there is none. */
  #evictOldestIdle(): boolean {
    for (const set of this.#sets.values()) {
      if (set.inUse) continue;
      this.#drop(set);
      return true;
    }
    return false;
  }

  #evictBeyond(maxSets: number): void {
    while (this.#sets.size > maxSets && this.#evictOldestIdle()) {
      // each round drops one idle set
    }
  }

  /** True when `set` is still the cached set of its key (not dropped while a window held it). */
  isCached(set: MirrorSet): boolean {
    return this.#sets.get(set.key) === set;
  }

  #drop(set: MirrorSet): void {
    this.#sets.delete(set.key);
    if (!set.inUse) set.dispose();
    this.#frees.keepOnly(new Set([...this.#sets.values()].map((cached) => cached.tracker)));
  }

  /** Drops every set of `tracker` that mirrors the allocation it freed. */
  #dropFreed(tracker: DispatchContext['tracker'], allocationId: number): void {
    const stale = [...this.#sets.values()].filter((set) => set.tracker === tracker && set.allocationIds.includes(allocationId));
    for (const set of stale) this.#drop(set);
  }

  /** How many sets it keeps (held by a window or not). */
  get size(): number {
    return this.#sets.size;
  }

  /** How many trackers it listens to for frees (none once it keeps no set). */
  get watchedTrackers(): number {
    return this.#frees.size;
  }

  /** Drops every set (those a window holds go when it releases them) and stops listening for frees. */
  dispose(): void {
    for (const set of [...this.#sets.values()]) this.#drop(set);
  }
}

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

function sameAllocations(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}
