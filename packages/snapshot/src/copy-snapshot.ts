import type { StagingTier, StagingTierChoice } from './staging-types.js';
import type { DispatchContext, Snapshot, SnapshotPreparation } from './snapshot-strategy.js';
import type { CandidateRange } from './candidate-ranges.js';
import { AccountBuilder } from './copy-direction.js';
import { layOutRanges, segmentsFromStaging, segmentsToStaging } from './staging-layout.js';

/**
 * A snapshot that copies whole ranges to one staging region and back: the mechanism of `full`
 * and `write-set`. Declines when staging cannot hold the ranges in the chosen tier.
 */
export function prepareCopySnapshot(
  dispatch: DispatchContext,
  ranges: readonly CandidateRange[],
  choice: StagingTierChoice,
  notes: readonly string[],
): SnapshotPreparation {
  const layout = layOutRanges(ranges);
  if (layout.bytes === 0) return { kind: 'ready', snapshot: emptySnapshot(choice === 'auto' ? 'device' : choice, notes) };
  const staged = dispatch.staging.lease(dispatch.agent, layout.bytes, choice);
  if (staged.kind === 'declined') return staged;
  const { lease } = staged;
  const account = new AccountBuilder();
  account.staging[lease.tier] = lease.bytes;
  const captureSegments = segmentsToStaging(ranges, layout, lease.address);
  const restoreSegments = segmentsFromStaging(ranges, layout, lease.address);
  const snapshot: Snapshot = {
    ranges,
    tier: lease.tier,
    notes,
    capture() {
      dispatch.queue.enqueueCopy(captureSegments);
      for (const range of ranges) account.addCopy(range.kind, lease.tier, range.bytes);
    },
    restore() {
      dispatch.queue.enqueueCopy(restoreSegments);
      for (const range of ranges) account.addCopy(lease.tier, range.kind, range.bytes);
    },
    finish() {},
    account: () => account.snapshot(),
    release: () => lease.release(),
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
