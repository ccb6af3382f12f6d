import type { CaptureFolder, CaptureLaunch } from '../capture/capture-folder-types.js';

/**
 * Why a captured sequence starts where it does: the first launch's `sequenceBreak` as the capture
 * recorded it, or one the reader decides: `follows-missing` (the launch it follows is not among the
 * folder's launches: damaged, absent or not selected), `follows-taken` (another launch already
 * continues the one it follows), `format-version-1` (the record says nothing of sequences).
 */
export type CaptureSequenceStart = string;

/** A run of captured launches, each starting from the memory the one before it (and the work recorded between them) left. */
export interface CaptureSequence {
  /** In order; each after the first follows the one before it. */
  readonly launches: readonly CaptureLaunch[];
  readonly start: CaptureSequenceStart;
}

/** What {@link captureSequences} found. */
export interface CaptureSequences {
  readonly sequences: readonly CaptureSequence[];
  /** What a replay should know: a version 1 folder, launches that start a sequence of their own because the one they follow is not there. */
  readonly notes: readonly string[];
}

/**
 * The launches of a capture folder (all of them, or a selection: `{ ...folder, launches }`)
 * grouped into captured sequences by their `follows`: a launch continues the sequence of the launch
 * it follows when that launch is among the folder's launches and no other launch continues it
 * already; otherwise it starts a sequence of its own, with a note. The sequences are ordered by
 * their first launch. A version 1 record names no sequence: each of its launches is a sequence of
 * one (with one note for the folder).
 */
export function captureSequences(folder: CaptureFolder): CaptureSequences {
  const notes: string[] = [];
  const sequences: { launches: CaptureLaunch[]; start: CaptureSequenceStart }[] = [];
  /** The open sequence of each launch that ends one so far, by the launch's sequence number. */
  const endingAt = new Map<number, { launches: CaptureLaunch[] }>();
  const present = new Set(folder.launches.map((launch) => launch.sequence));
  let versionOne = 0;
  for (const launch of [...folder.launches].sort((a, b) => a.sequence - b.sequence)) {
    const start = (reason: CaptureSequenceStart) => {
      const sequence = { launches: [launch], start: reason };
      sequences.push(sequence);
      endingAt.set(launch.sequence, sequence);
    };
    if (launch.formatVersion !== 2) {
      versionOne += 1;
      start('format-version-1');
      continue;
    }
    if (launch.follows === null) {
      start(launch.sequenceBreak ?? 'first-launch');
      continue;
    }
    const open = endingAt.get(launch.follows);
    if (open !== undefined) {
      endingAt.delete(launch.follows);
      open.launches.push(launch);
      endingAt.set(launch.sequence, open);
      continue;
    }
    if (present.has(launch.follows)) {
      notes.push(`launch ${launch.sequence} follows launch ${launch.follows}, which another launch continues already: it starts a sequence of its own`);
      start('follows-taken');
    } else {
      notes.push(`launch ${launch.sequence} follows launch ${launch.follows}, which is not among the launches (damaged, absent or not selected): it starts a sequence of its own, from its own memory`);
      start('follows-missing');
    }
  }
  if (versionOne > 0) {
    notes.unshift(`${versionOne === folder.launches.length ? 'the capture is' : `${versionOne} launches are`} of format version 1, which records no captured sequences: each launch is replayed alone, from its own memory`);
  }
  return Object.freeze({
    sequences: Object.freeze(sequences.map((sequence) => Object.freeze({ launches: Object.freeze(sequence.launches), start: sequence.start }))),
    notes: Object.freeze(notes),
  });
}
