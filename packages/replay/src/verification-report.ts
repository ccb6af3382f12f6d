/** How much a dispatch is checked: not at all, restores, or restores and pass-to-pass output equality. */
export type VerifyMode = 'off' | 'restore' | 'full';

/** A range whose hashes did not match. */
export interface RangeMismatch {
  /** `restore`: memory before `pass` differs from before pass 1; `pass-output`: memory after `pass` differs from after pass 1. */
  readonly check: 'restore' | 'pass-output';
  readonly pass: number;
  /** The tracker's id of the allocation holding the range. */
  readonly allocationId: number;
  readonly address: number;
  readonly bytes: number;
}

/**
 * What verification of one dispatch came to:
 * - `verified`: every check the mode calls for was made, and all passed;
 * - `mismatch`: a check was made and failed (a restore was not exact, or, in `full`, pass outputs
 *   differed: see `nondeterministic`), whatever else could not be checked;
 * - `incomplete`: no check failed, but not all could be made (a verification hash failed twice and
 *   was skipped, or the window failed before its hashes were taken): nothing is proven either way;
 * - `not-run`: nothing was checked: verification is off, or the dispatch was not replayed (it was
 *   declined, or has one pass).
 */
export type VerificationStatus = 'verified' | 'mismatch' | 'incomplete' | 'not-run';

/** What verification found. `null` = that check was not made. */
export interface VerificationReport {
  readonly mode: VerifyMode;
  /** What it came to; `DispatchResult.verified` is true exactly for `verified`, false exactly for `mismatch`. */
  readonly status: VerificationStatus;
  /** Every pass started from the bytes pass 1 started from (every tracked allocation, 64 KiB page hashes). */
  readonly restoresExact: boolean | null;
  /** (`full`) Every pass left the bytes pass 1 left. */
  readonly passOutputsEqual: boolean | null;
  /** (`full`) Restores were exact but pass outputs differed: the kernel is not deterministic. */
  readonly nondeterministic: boolean;
  /** Every hash the mode calls for was taken (true when nothing was to be taken: status `not-run`). */
  readonly complete: boolean;
  /** Bytes hashed for verification (not part of the snapshot's account). */
  readonly hashedBytes: number;
  readonly mismatchedRanges: readonly RangeMismatch[];
}

/** The report of a dispatch that was not verified (mode off, declined, or one pass). */
export function unverifiedReport(mode: VerifyMode): VerificationReport {
  return {
    mode,
    status: 'not-run',
    restoresExact: null,
    passOutputsEqual: null,
    nondeterministic: false,
    complete: true,
    hashedBytes: 0,
    mismatchedRanges: [],
  };
}

/** The status of checks whose results are `restoresExact` and `passOutputsEqual` (null: not made), `complete` when all were made. */
export function verificationStatus(restoresExact: boolean | null, passOutputsEqual: boolean | null, complete: boolean): VerificationStatus {
  if (restoresExact === false || passOutputsEqual === false) return 'mismatch';
  return complete && restoresExact === true ? 'verified' : 'incomplete';
}

/** `DispatchResult.verified` of a status: true when verified, false on a mismatch, else null. */
export function verifiedOfStatus(status: VerificationStatus): boolean | null {
  if (status === 'verified') return true;
  return status === 'mismatch' ? false : null;
}
