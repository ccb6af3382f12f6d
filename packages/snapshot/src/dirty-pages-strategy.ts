import { snapshotArgumentError } from './argument-error.js';
import type { DisposableSnapshotStrategy } from './snapshot-strategy.js';
import { snapshotSpecificationVersion } from './snapshot-strategy.js';
import type { StagingTierChoice } from './staging-types.js';
import { allAllocationRanges, writableRanges } from './candidate-ranges.js';
import { candidateSet, CandidateSetMemo } from './candidate-set.js';
import { emptySnapshot } from './copy-snapshot.js';
import { createDirtyPagesSnapshot } from './dirty-pages-snapshot.js';
import { MirrorCache } from './mirror-cache.js';
import { validatePageBytes, validateTierChoice } from './validate-strategy-options.js';

/** Options of {@link dirtyPagesStrategy}. */
export interface DirtyPagesStrategyOptions {
  /** Where mirrors are kept. Default `auto` (device while it fits; else the part that fits on the device, the rest in pinned host memory). */
  readonly tier?: StagingTierChoice;
  /** Page size of change detection, a power of two. Default 65536. */
  readonly pageBytes?: number;
  /** `write-set` (default) narrows candidates to what the dispatch can write; `all` mirrors every allocation. */
  readonly candidates?: 'write-set' | 'all';
  /** How many candidate sets keep a mirror across dispatches. Default 16. */
  readonly maxMirrorSets?: number;
}

/**
 * Page-granular snapshots: a mirror of the candidate set is kept across dispatches with a hash per
 * page; capture copies only pages changed since the mirror was taken (only the pages the last
 * window wrote, without hashing the rest, when nothing else was issued since it), and restores copy
 * back only the pages the kernel wrote (learned by hashing after pass 1, repeated from that list after).
 *
 * What it holds across dispatches: up to `maxMirrorSets` mirrors, each a staging lease per tier it
 * spans (the mirrored bytes, a hash per page, two page lists) and a pinned host readback buffer. A mirror goes
 * as soon as the tracker reports one of its allocations freed; the rest stay until `dispose()` (or
 * the end of a `using` block), which the strategy's creator calls after disposing the engines
 * that use it: an engine never disposes its strategy.
 * @throws ArgumentError when an option is invalid.
 */
export function dirtyPagesStrategy(options: DirtyPagesStrategyOptions = {}): DisposableSnapshotStrategy {
  const tier = validateTierChoice(options.tier ?? 'auto', 'dirty-pages');
  const pageBytes = validatePageBytes(options.pageBytes ?? 65536, 'dirty-pages');
  const candidates = options.candidates ?? 'write-set';
  if (candidates !== 'write-set' && candidates !== 'all') {
    throw snapshotArgumentError('dirty-pages', 'candidates', `candidates must be 'write-set' or 'all', got ${String(candidates)}`, 'Leave it out to narrow by the write set');
  }
  const maxMirrorSets = options.maxMirrorSets ?? 16;
  if (!Number.isSafeInteger(maxMirrorSets) || maxMirrorSets < 1) {
    throw snapshotArgumentError('dirty-pages', 'maxMirrorSets', `maxMirrorSets must be a whole number >= 1, got ${String(maxMirrorSets)}`, 'Leave it out for 16');
  }
  const cache = new MirrorCache(maxMirrorSets, tier, pageBytes);
  const writeSets = new CandidateSetMemo();

  return {
    specificationVersion: snapshotSpecificationVersion,
    name: 'dirty-pages',
    prepare(dispatch) {
      const notes: string[] = [];
      const bounded = candidates === 'write-set' && dispatch.resolution.bounded;
      if (candidates === 'write-set' && !bounded) {
        notes.push(`candidates are every allocation: ${dispatch.resolution.reasons.join('; ') || 'arguments not bounded'}`);
      }
      const set = bounded
        ? writeSets.of(dispatch, () => writableRanges(dispatch.resolution)!)
        : candidateSet(dispatch, allAllocationRanges(dispatch));
      if (set.ranges.length === 0) return { kind: 'ready', snapshot: emptySnapshot(tier === 'auto' ? 'device' : tier, notes) };
      const acquired = cache.acquire(dispatch, set);
      if (acquired.kind === 'declined') return acquired;
      const mirror = acquired.set;
      const onRelease = () => {
        mirror.inUse = false;
        if (!cache.isCached(mirror)) mirror.dispose();
      };
      return { kind: 'ready', snapshot: createDirtyPagesSnapshot(dispatch, mirror, notes, onRelease) };
    },
    dispose: () => cache.dispose(),
    [Symbol.dispose]: () => cache.dispose(),
  };
}
