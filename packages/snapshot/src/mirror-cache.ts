import type { DispatchContext } from './snapshot-strategy.js';
import type { StagingTierChoice } from './staging-types.js';
import type { CandidateSet } from './candidate-set.js';
import type { CandidateRange } from './candidate-ranges.js';
import { layOutMirror } from './mirror-layout.js';
import { MirrorSet } from './mirror-set.js';

/** A mirror set for one dispatch (cached, or temporary when the cached one is held by another window). */
export type MirrorAcquisition =
  | { readonly kind: 'acquired'; readonly set: MirrorSet }
  | { readonly kind: 'declined'; readonly reason: string };

/**
 * The mirror sets a dirty-pages strategy keeps across dispatches, least recently used first. A set
 * is keyed by its candidate ranges and dropped when one of its allocations is no longer the one it
 * mirrored (freed, or its address reused).
 */
export class MirrorCache {
  readonly #sets = new Map<string, MirrorSet>();

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
    const layout = layOutMirror(ranges, this.pageBytes);
    let staged = dispatch.staging.lease(dispatch.agent, layout.bytes, this.tier);
    while (staged.kind === 'declined' && this.#evictOldestIdle()) {
      staged = dispatch.staging.lease(dispatch.agent, layout.bytes, this.tier);
    }
    if (staged.kind === 'declined') return `dirty-pages mirror: ${staged.reason}`;
    const readback = dispatch.runtime.allocateHost(layout.controlBytes, { pinned: true });
    dispatch.tracker.tag(readback.address, 'excluded');
    return new MirrorSet(key, ranges, allocationIds, layout, staged.lease, readback);
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
  }

  dispose(): void {
    for (const set of [...this.#sets.values()]) this.#drop(set);
  }
}

function sameAllocations(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}
