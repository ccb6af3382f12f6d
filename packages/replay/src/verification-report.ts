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

/** What verification found. `null` = that check was not made. */
export interface VerificationReport {
  readonly mode: VerifyMode;
  /** Every pass started from the bytes pass 1 started from (every tracked allocation, 64 KiB page hashes). */
  readonly restoresExact: boolean | null;
  /** (`full`) Every pass left the bytes pass 1 left. */
  readonly passOutputsEqual: boolean | null;
  /** (`full`) Restores were exact but pass outputs differed: the kernel is not deterministic. */
  readonly nondeterministic: boolean;
  /** Every hash the mode calls for was taken. */
  readonly complete: boolean;
  /** Bytes hashed for verification (not part of the snapshot's account). */
  readonly hashedBytes: number;
  readonly mismatchedRanges: readonly RangeMismatch[];
}

/** The report of a dispatch that was not verified (mode off, declined, or one pass). */
export function unverifiedReport(mode: VerifyMode): VerificationReport {
  return {
    mode,
    restoresExact: null,
    passOutputsEqual: null,
    nondeterministic: false,
    complete: true,
    hashedBytes: 0,
    mismatchedRanges: [],
  };
}
