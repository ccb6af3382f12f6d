import type { CopySegment } from '@kreplay/native';
import type { StagingTier, StagingTierChoice } from './staging-types.js';
import type { DispatchContext, Snapshot, SnapshotPreparation } from './snapshot-strategy.js';
import type { CandidateRange } from './candidate-ranges.js';
import { AccountBuilder } from './copy-direction.js';
import { leaseAcrossTiers } from './lease-across-tiers.js';
import { layOutRanges, segmentsFromStaging, segmentsToStaging } from './staging-layout.js';

/** Copies are cut between tiers at this boundary within an allocation. */
const splitGranule = 4096;
const stagingBytes = (ranges: readonly CandidateRange[]) => layOutRanges(ranges).bytes;

/**
 * A snapshot that copies whole ranges to staging and back: the mechanism of `full` and `write-set`.
 * The staging is one region, or with `auto` one region per tier when the ranges do not fit the
 * spare device memory whole (see {@link leaseAcrossTiers}); either way capture and restore are
 * one copy plan each. Declines when staging cannot hold the ranges.
 */
export function prepareCopySnapshot(
  dispatch: DispatchContext,
  ranges: readonly CandidateRange[],
  choice: StagingTierChoice,
  notes: readonly string[],
): SnapshotPreparation {
  if (ranges.every((range) => range.bytes === 0)) return { kind: 'ready', snapshot: emptySnapshot(choice === 'auto' ? 'device' : choice, notes) };
  const staged = leaseAcrossTiers(dispatch, ranges, choice, splitGranule, stagingBytes);
  if (staged.kind === 'declined') return staged;
  const { parts } = staged;
  const account = new AccountBuilder();
  const captureSegments: CopySegment[] = [];
  const restoreSegments: CopySegment[] = [];
  for (const { ranges: partRanges, lease } of parts) {
    account.staging[lease.tier] += lease.bytes;
    const layout = layOutRanges(partRanges);
    captureSegments.push(...segmentsToStaging(partRanges, layout, lease.address));
    restoreSegments.push(...segmentsFromStaging(partRanges, layout, lease.address));
  }
  const snapshot: Snapshot = {
    ranges,
    tier: parts[0]!.lease.tier,
    notes,
    capture() {
      dispatch.queue.enqueueCopy(captureSegments);
      for (const { ranges: partRanges, lease } of parts) for (const range of partRanges) account.addCopy(range.kind, lease.tier, range.bytes);
    },
    restore() {
      dispatch.queue.enqueueCopy(restoreSegments);
      for (const { ranges: partRanges, lease } of parts) for (const range of partRanges) account.addCopy(lease.tier, range.kind, range.bytes);
    },
    finish() {},
    account: () => account.snapshot(),
    release: () => parts.forEach((part) => part.lease.release()),
  };
  return { kind: 'ready', snapshot };
}

/** A snapshot of nothing: the dispatch writes no tracked memory. */
export function emptySnapshot(tier: StagingTier, notes: readonly string[]): Snapshot {
  const account = new AccountBuilder();
  return {
    ranges: [],
    tier,
    notes,
    capture() {},
    restore() {},
    finish() {},
    account: () => account.snapshot(),
    release() {},
  };
}
