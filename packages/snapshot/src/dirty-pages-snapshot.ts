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
 * A mirror spanning tiers does each of these once per part, in the order of its parts. A part with a
 * restore cache (see {@link RestoreCache}) gathers the learned pages into it after learning them,
 * and its later restores take them from it.
 */
export function createDirtyPagesSnapshot(
  dispatch: DispatchContext,
  set: MirrorSet,
  notes: readonly string[],
  onRelease: (set: MirrorSet) => void,
): Snapshot {
  const { queue, runtime } = dispatch;
  const { parts } = set;
  const candidateBytes = totalBytes(set.ranges);
  const account = new AccountBuilder();
  for (const part of parts) {
    account.staging[part.tier] += part.lease.bytes;
    if (part.restoreCache) account.staging.device += part.restoreCache.lease.bytes;
  }
  let captureKind: CaptureKind | undefined;
  let knownWriterBytes: readonly (readonly number[])[] = [];
  let restoresFromList = 0;
  let learningRestores = 0;
  let learned = false;
  /** Set when the learning restore is tried again: every later restore learns again (see restore). */
  let relearn = false;
  let learnedBytes: number[][] | undefined;
  // runtime.workIssued and queue.workEnqueued when capture began: work issued during the window
  // by anything but its own queue (another queue, agent.write) makes its end unknown.
  let issuedAtCapture = 0;
  let queuedAtCapture = 0;
  let issuedAfterFinish: number | undefined;
  let released = false;
  /** Bytes per range of each part's learned pages, read back once the queue has completed the window. */
  const learnedPerRange = () => (learnedBytes ??= parts.map((part) => part.bytesPerRange(part.recordedPages('learned'))));

  return {
    ranges: set.ranges,
    tier: parts[0]!.tier,
    notes,
    capture() {
      issuedAtCapture = runtime.workIssued;
      queuedAtCapture = queue.workEnqueued;
      const known = set.known;
      set.known = undefined; // only a window that completes knows again
      if (set.fresh) {
        for (const part of parts) {
          queue.enqueueCopy(part.toMirror);
          queue.enqueueHashPages(part.mirrorData, part.layout.pageBytes, part.operations.storedHashesAddress);
          part.ranges.forEach((range) => account.addCopy(range.kind, part.tier, range.bytes));
        }
        set.fresh = false;
        captureKind = 'everything';
        account.hashed += candidateBytes;
      } else if (known !== undefined && set.writtenOnlyByQueues && known.workIssued === runtime.workIssued) {
        for (const part of parts) queue.enqueueCopyPageList(part.operations.captureKnownWriters);
        captureKind = 'known-writers';
        knownWriterBytes = known.learnedBytes;
        for (const bytes of knownWriterBytes) account.hashed += bytes.reduce((sum, each) => sum + each, 0);
      } else {
        for (const part of parts) queue.enqueueCopyChangedPages(part.operations.captureChangedPages);
        captureKind = 'changed-pages';
        account.hashed += candidateBytes;
      }
    },
    restore(nextPass) {
      // The restore before pass 2 learns the written pages. When it is tried again, its failed
      // attempt may have restored some pages (of one part, or some of a part's) and recorded them:
      // learning again would miss them. So from then on every restore learns again, copying the
      // pages that differ from the mirror, and the window tells the next one nothing.
      if (learned && nextPass === 2) relearn = true;
      if (relearn || nextPass === 2 || !learned) {
        for (const part of parts) {
          queue.enqueueCopyChangedPages(part.operations.restoreLearning);
          // Memory now holds what the mirror does on the learned pages: the cache takes them from it.
          if (part.restoreCache && !relearn) queue.enqueueCopyPageList(part.restoreCache.gather);
        }
        account.hashed += candidateBytes;
        learned = true;
        learningRestores += 1;
      } else {
        for (const part of parts) queue.enqueueCopyPageList((part.restoreCache ?? part.operations).restoreLearned);
        restoresFromList += 1;
      }
    },
    finish() {
      for (const part of parts) {
        queue.enqueueCopy(part.operations.readControlBlock);
        account.addCopy(part.tier, 'host-pinned', part.layout.controlBytes);
      }
      const onlyThisQueue = runtime.workIssued - issuedAtCapture === queue.workEnqueued - queuedAtCapture;
      issuedAfterFinish = onlyThisQueue ? runtime.workIssued : undefined;
    },
    account() {
      const settled = account.clone();
      parts.forEach((part, partIndex) => {
        const captured =
          captureKind === 'changed-pages'
            ? part.bytesPerRange(part.recordedPages('capture'))
            : captureKind === 'known-writers'
              ? knownWriterBytes[partIndex]!
              : [];
        captured.forEach((bytes, index) => settled.addCopy(part.ranges[index]!.kind, part.tier, bytes));
        if (learned) {
          // Each learning restore and each later one copy every learned page; with a cache, the
          // first learning restore (never a relearning one) gathers the first ones into it, and
          // later restores take them from it.
          const cache = part.restoreCache;
          const cached = cache ? part.bytesPerRange(part.recordedPages('learned').subarray(0, cache.pages)) : undefined;
          learnedPerRange()[partIndex]!.forEach((bytes, index) => {
            const kind = part.ranges[index]!.kind;
            const fromCache = cached?.[index] ?? 0;
            settled.addCopy(part.tier, kind, bytes * learningRestores + (bytes - fromCache) * restoresFromList);
            settled.addCopy(kind, 'device', fromCache);
            settled.addCopy('device', kind, fromCache * restoresFromList);
          });
        }
      });
      return settled.snapshot();
    },
    release(end?: WindowEnd) {
      if (released) return;
      released = true;
      const knows = end?.completed === true && learned && !relearn && issuedAfterFinish !== undefined;
      set.known = knows ? { workIssued: issuedAfterFinish!, learnedBytes: learnedPerRange() } : undefined;
      onRelease(set);
    },
  };
}
