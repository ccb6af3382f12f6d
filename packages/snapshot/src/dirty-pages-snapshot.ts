import type { DispatchContext, Snapshot } from './snapshot-strategy.js';
import { AccountBuilder } from './copy-direction.js';
import type { MirrorSet } from './mirror-set.js';
import { totalBytes } from './staging-layout.js';

/**
 * The snapshot of one dispatch over a mirror set. Capture brings the mirror up to date by copying
 * only pages whose hash changed; the first restore hashes memory and copies back only the pages
 * the kernel wrote, recording them; later restores copy that recorded list again without hashing.
 */
export function createDirtyPagesSnapshot(
  dispatch: DispatchContext,
  set: MirrorSet,
  notes: readonly string[],
  onRelease: (set: MirrorSet) => void,
): Snapshot {
  const { queue } = dispatch;
  const { layout, lease } = set;
  const candidateBytes = totalBytes(set.ranges);
  const account = new AccountBuilder();
  account.staging[lease.tier] = lease.bytes;
  let capturedAll = false;
  let restoresFromList = 0;
  let learned = false;
  let released = false;
  const listOptions = (listOffset: number, countIndex: number) => ({
    pageBytes: layout.pageBytes,
    pageListAddress: set.address(listOffset),
    pageCountAddress: set.address(layout.countsOffset + countIndex * 4),
  });

  return {
    ranges: set.ranges,
    tier: lease.tier,
    notes,
    capture() {
      if (set.fresh) {
        queue.enqueueCopy(set.toMirror);
        queue.enqueueHashPages(set.mirrorData, layout.pageBytes, set.address(layout.hashesOffset));
        set.fresh = false;
        capturedAll = true;
        set.ranges.forEach((range) => account.addCopy(range.kind, lease.tier, range.bytes));
      } else {
        queue.enqueueCopyChangedPages({
          segments: set.toMirror,
          hashedSide: 'source',
          storedHashesAddress: set.address(layout.hashesOffset),
          updateStoredHashes: true,
          ...listOptions(layout.captureListOffset, 0),
        });
      }
      account.hashed += candidateBytes;
    },
    restore() {
      if (!learned) {
        queue.enqueueCopyChangedPages({
          segments: set.fromMirror,
          hashedSide: 'destination',
          storedHashesAddress: set.address(layout.hashesOffset),
          updateStoredHashes: false,
          ...listOptions(layout.learnedListOffset, 1),
        });
        account.hashed += candidateBytes;
        learned = true;
      } else {
        queue.enqueueCopyPageList({ segments: set.fromMirror, ...listOptions(layout.learnedListOffset, 1) });
        restoresFromList += 1;
      }
    },
    finish() {
      queue.enqueueCopy([
        { source: set.address(layout.captureListOffset), destination: set.readback.address, bytes: layout.controlBytes },
      ]);
      account.addCopy(lease.tier, 'host-pinned', layout.controlBytes);
    },
    account() {
      const settled = account.clone();
      if (!capturedAll) {
        const captured = set.bytesPerRange(set.recordedPages('capture'));
        set.ranges.forEach((range, index) => settled.addCopy(range.kind, lease.tier, captured[index]!));
      }
      if (learned) {
        const restored = set.bytesPerRange(set.recordedPages('learned'));
        set.ranges.forEach((range, index) =>
          settled.addCopy(lease.tier, range.kind, restored[index]! * (1 + restoresFromList)),
        );
      }
      return settled.snapshot();
    },
    release() {
      if (released) return;
      released = true;
      onRelease(set);
    },
  };
}
