/**
 * @kreplay/snapshot — snapshot strategies, staging tiers and budgets, and byte accounting.
 */
export { snapshotSpecificationVersion } from './snapshot-strategy.js';
export type {
  DispatchContext,
  DisposableSnapshotStrategy,
  Snapshot,
  SnapshotPreparation,
  SnapshotStrategy,
  WindowEnd,
} from './snapshot-strategy.js';
export type { ByteAccount } from './byte-account.js';
export { addByteAccounts, bytesCopied, emptyByteAccount } from './byte-account.js';
export type {
  Staging,
  StagingLease,
  StagingOptions,
  StagingResult,
  StagingTier,
  StagingTierChoice,
  StagingUsage,
} from './staging-types.js';
export { createStaging } from './staging/create-staging.js';
export { fullStrategy } from './full-strategy.js';
export type { FullStrategyOptions } from './full-strategy.js';
export { writeSetStrategy } from './write-set-strategy.js';
export type { WriteSetStrategyOptions } from './write-set-strategy.js';
export { dirtyPagesStrategy } from './dirty-pages-strategy.js';
export type { DirtyPagesStrategyOptions } from './dirty-pages-strategy.js';
