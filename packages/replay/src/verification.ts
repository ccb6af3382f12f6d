import type { KernelDescriptor } from '@kreplay/native';
import type { HashPoint, HashTarget, VerificationPlan } from './verification-plan.js';
import { verificationPageBytes } from './verification-plan.js';
import { verificationStatus, type RangeMismatch, type VerifyMode, type VerificationReport } from './verification-report.js';

/** The hashes a window took: which points were hashed, and the pass count. */
export interface TakenHashes {
  readonly mode: Exclude<VerifyMode, 'off'>;
  readonly plan: VerificationPlan;
  readonly passCount: number;
  /** Whether the point's hashing completed (a point that failed twice is skipped). */
  readonly taken: (point: HashPoint) => boolean;
  /** How many points were hashed. */
  readonly hashedPoints: number;
}

/**
 * Compares the window's hashes: each restore against the baseline and, in `full`, each pass's
 * output against pass 1's. Pages that differ are reported as ranges, adjacent pages merged.
 */
export function compareHashes(hashes: TakenHashes, kernel: KernelDescriptor, notes: string[]): VerificationReport {
  const { mode, plan, passCount, taken } = hashes;
  const mismatches: RangeMismatch[] = [];
  let complete = true;
  const check = (check: RangeMismatch['check'], reference: HashPoint, point: HashPoint, pass: number): boolean | null => {
    if (!taken(reference) || !taken(point)) {
      complete = false;
      return null;
    }
    const found = differingRanges(plan.targets, plan.read(reference), plan.read(point), check, pass);
    mismatches.push(...found);
    return found.length === 0;
  };
  const baseline: HashPoint = { kind: 'baseline' };
  const restores: (boolean | null)[] = [];
  const outputs: (boolean | null)[] = [];
  for (let pass = 2; pass <= passCount; pass += 1) {
    restores.push(check('restore', baseline, { kind: 'restore', pass }, pass));
    if (mode === 'full') outputs.push(check('pass-output', { kind: 'pass', pass: 1 }, { kind: 'pass', pass }, pass));
  }
  const restoresExact = allOf(restores);
  const passOutputsEqual = mode === 'full' ? allOf(outputs) : null;
  const nondeterministic = restoresExact === true && passOutputsEqual === false;
  if (nondeterministic) {
    notes.push(
      kernel.deterministic
        ? `kernel ${kernel.name} is declared deterministic, but its passes wrote different bits from identical memory`
        : `kernel ${kernel.name} is not deterministic (as declared): its passes wrote different bits from identical memory`,
    );
  }
  return {
    mode,
    status: verificationStatus(restoresExact, passOutputsEqual, complete),
    restoresExact,
    passOutputsEqual,
    nondeterministic,
    complete,
    hashedBytes: hashes.hashedPoints * plan.bytesPerPoint,
    mismatchedRanges: mismatches,
  };
}

/** False when any check failed, true when all were made and passed, null when none could be made. */
function allOf(results: readonly (boolean | null)[]): boolean | null {
  if (results.includes(false)) return false;
  return results.includes(null) ? null : true;
}

function differingRanges(
  targets: readonly HashTarget[],
  reference: BigUint64Array,
  actual: BigUint64Array,
  check: RangeMismatch['check'],
  pass: number,
): RangeMismatch[] {
  const ranges: RangeMismatch[] = [];
  for (const target of targets) {
    let open: { address: number; end: number } | undefined;
    const close = () => {
      if (open) ranges.push({ check, pass, allocationId: target.allocationId, address: open.address, bytes: open.end - open.address });
      open = undefined;
    };
    for (let page = 0; page < target.pages; page += 1) {
      const index = target.firstPage + page;
      if (reference[index] === actual[index]) {
        close();
        continue;
      }
      const address = target.address + page * verificationPageBytes;
      const end = Math.min(address + verificationPageBytes, target.address + target.bytes);
      if (open) open.end = end;
      else open = { address, end };
    }
    close();
  }
  return ranges;
}
