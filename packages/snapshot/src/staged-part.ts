import type { CandidateRange } from './candidate-ranges.js';
import type { RestoreCache } from './restore-cache.js';
import type { StagingLease } from './staging-types.js';

/** Some of a snapshot's ranges and the one lease (of one tier) that stages them. */
export interface StagedPart {
  readonly ranges: readonly CandidateRange[];
  readonly lease: StagingLease;
  /** For a part in host memory: device staging for a restore cache (see {@link RestoreCache}). */
  readonly restoreCache?: StagingLease;
}
