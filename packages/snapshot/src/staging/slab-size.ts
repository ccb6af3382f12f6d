const smallGranule = 64 * 1024;
const largeGranule = 2 * 1024 * 1024;

/**
 * The size of a new pooled slab for a request: rounded up so that requests of nearly the same size
 * (the usual case from one dispatch to the next) reuse one slab instead of growing the pool.
 */
export function roundSlabBytes(bytes: number): number {
  const granule = bytes >= largeGranule ? largeGranule : smallGranule;
  return Math.ceil(bytes / granule) * granule;
}
