import type { DispatchResult, VerificationStatus } from '@kreplay/replay';

/** How many dispatches came to each verification status. */
export type VerificationTally = Readonly<Record<VerificationStatus, number>>;

/** A tally of no dispatches. */
export function emptyVerificationTally(): VerificationTally {
  return { verified: 0, mismatch: 0, incomplete: 0, 'not-run': 0 };
}

/** `tally` with one more dispatch of `result`'s status. */
export function addToVerificationTally(tally: VerificationTally, result: Pick<DispatchResult, 'verification'>): VerificationTally {
  const status = result.verification.status;
  return { ...tally, [status]: tally[status] + 1 };
}

/**
 * What the dispatches of a tally prove together: false when any was a mismatch; true when some
 * were verified and none was a mismatch or incomplete (the others were not replayed); null when
 * nothing was proven: no dispatch verified (all declined, one pass, verification off), or some
 * verification could not be completed.
 */
export function verifiedOfTally(tally: VerificationTally): boolean | null {
  if (tally.mismatch > 0) return false;
  return tally.verified > 0 && tally.incomplete === 0 ? true : null;
}
