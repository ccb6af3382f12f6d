import type { PageListCopyOptions } from '@kreplay/native';
import type { StagingLease } from './staging-types.js';

/**
 * Device staging that holds the pages a window's restores bring back into device memory from a
 * mirror part in host memory, so that every restore after the first is a device-to-device copy.
 * The restore before pass 2 learns the written pages and brings them back from the mirror; right
 * after it, memory holds what the mirror does on those pages, and the first `pages` of them (in
 * the learned list's order) are gathered from memory into the cache. Later restores take those
 * from the cache and the rest from the mirror. The cache lives for one window: each learning
 * gathers it again.
 */
export class RestoreCache {
  /** How many learned pages it holds. */
  readonly pages: number;
  /** Gathers the first learned pages from application memory into the cache (after the learning restore). */
  readonly gather: PageListCopyOptions;
  /** Restores the learned pages: the first ones from the cache, the rest from the mirror. */
  readonly restoreLearned: PageListCopyOptions;

  constructor(
    readonly lease: StagingLease,
    pageBytes: number,
    /** The part's learned-list restore, and its copy of the same pages into the mirror (a capture from known writers). */
    part: { readonly restoreLearned: PageListCopyOptions; readonly captureKnownWriters: PageListCopyOptions },
  ) {
    this.pages = Math.floor(lease.bytes / pageBytes);
    const { storedHashesAddress: _hashes, ...intoMirror } = part.captureKnownWriters;
    this.gather = Object.freeze({ ...intoMirror, compact: Object.freeze({ address: lease.address, pages: this.pages, side: 'destination' as const }) });
    this.restoreLearned = Object.freeze({ ...part.restoreLearned, compact: Object.freeze({ address: lease.address, pages: this.pages, side: 'source' as const }) });
  }
}
