import type { DispatchContext, Snapshot, WindowEnd } from './snapshot-strategy.js';
import { AccountBuilder } from './copy-direction.js';
import type { MirrorSet } from './mirror-set.js';
import { totalBytes } from './staging-layout.js';

/** How a capture brought the mirror up to date. */
type CaptureKind = 'everything' | 'changed-pages' | 'known-writers';

/**
 * The snapshot of one dispatch over a mirror set. Capture brings the mirror up to date:
 * - when every writer since the last window is known (nothing was issued on the runtime since it,
 *   nor during it but on its own queue, so only its last pass wrote, and that pass wrote the pages
 *   its first pass did), by copying those pages and their hashes, without reading the rest;
 * - otherwise by copying the pages whose hash changed.
 * The restore before pass 2 (each attempt of it) hashes memory and copies back only the pages the
 * kernel wrote, recording them; later restores copy that recorded list again without hashing.
 */
export function createDirtyPagesSnapshot(
  dispatch: DispatchContext,
  set: MirrorSet,
  notes: readonly string[],
  onRelease: (set: MirrorSet) => void,
): Snapshot {
  const { queue, runtime } = dispatch;
  const { layout, lease, operations } = set;
  const candidateBytes = totalBytes(set.ranges);
  const account = new AccountBuilder();
  account.staging[lease.tier] = lease.bytes;
  let captureKind: CaptureKind | undefined;
  let knownWriterBytes: readonly number[] = [];
  let restoresFromList = 0;
  let learned = false;
  let learnedBytes: number[] | undefined;
  // runtime.workIssued and queue.workEnqueued when capture began: work issued during the window
  // by anything but its own queue (another queue, agent.write) makes its end unknown.
  let issuedAtCapture = 0;
  let queuedAtCapture = 0;
  let issuedAfterFinish: number | undefined;
  let released = false;
  /** Bytes per range of the learned pages, read back once the queue has completed the window. */
  const learnedPerRange = () => (learnedBytes ??= set.bytesPerRange(set.recordedPages('learned')));

  return {
    ranges: set.ranges,
    tier: lease.tier,
    notes,
    capture() {
      issuedAtCapture = runtime.workIssued;
      queuedAtCapture = queue.workEnqueued;
      const known = set.known;
      set.known = undefined; // only a window that completes knows again
      if (set.fresh) {
        queue.enqueueCopy(set.toMirror);
        queue.enqueueHashPages(set.mirrorData, layout.pageBytes, operations.storedHashesAddress);
        set.fresh = false;
        captureKind = 'everything';
        set.ranges.forEach((range) => account.addCopy(range.kind, lease.tier, range.bytes));
        account.hashed += candidateBytes;
      } else if (known !== undefined && set.writtenOnlyByQueues && known.workIssued === runtime.workIssued) {
        queue.enqueueCopyPageList(operations.captureKnownWriters);
        captureKind = 'known-writers';
        knownWriterBytes = known.learnedBytes;
        account.hashed += knownWriterBytes.reduce((sum, bytes) => sum + bytes, 0);
      } else {
        queue.enqueueCopyChangedPages(operations.captureChangedPages);
        captureKind = 'changed-pages';
        account.hashed += candidateBytes;
      }
    },
    restore(nextPass) {
      // The restore before pass 2 learns the written pages; it learns again when it is tried again
      // (its failed attempt may have recorded nothing), so later restores never copy a stale list.
      if (nextPass === 2 || !learned) {
        queue.enqueueCopyChangedPages(operations.restoreLearning);
        account.hashed += candidateBytes;
        learned = true;
      } else {
        queue.enqueueCopyPageList(operations.restoreLearned);
        restoresFromList += 1;
      }
    },
    finish() {
      queue.enqueueCopy(operations.readControlBlock);
      account.addCopy(lease.tier, 'host-pinned', layout.controlBytes);
      const onlyThisQueue = runtime.workIssued - issuedAtCapture === queue.workEnqueued - queuedAtCapture;
      issuedAfterFinish = onlyThisQueue ? runtime.workIssued : undefined;
    },
    account() {
      const settled = account.clone();
      const captured =
        captureKind === 'changed-pages' ? set.bytesPerRange(set.recordedPages('capture')) : captureKind === 'known-writers' ? knownWriterBytes : [];
      captured.forEach((bytes, index) => settled.addCopy(set.ranges[index]!.kind, lease.tier, bytes));
      if (learned) {
        learnedPerRange().forEach((bytes, index) => settled.addCopy(lease.tier, set.ranges[index]!.kind, bytes * (1 + restoresFromList)));
      }
      return settled.snapshot();
    },
    release(end?: WindowEnd) {
      if (released) return;
      released = true;
      const knows = end?.completed === true && learned && issuedAfterFinish !== undefined;
      set.known = knows ? { workIssued: issuedAfterFinish!, learnedBytes: learnedPerRange() } : undefined;
      onRelease(set);
    },
  };
}
