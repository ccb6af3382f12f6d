import { InvalidArgumentError } from 'commander';
import { captureSequences } from '@kreplay/native';
import type { CaptureFolder, CaptureLaunch } from '@kreplay/native';

/**
 * The most launches `--range auto` replays as one range (a longer captured sequence is cut into
 * ranges of this many). The CUPTI profiler holds every range of a pass in one counter data image,
 * sized for the pass's ranges up front: with the kernel's automatic range and the L2 flushed
 * between dispatches, K dispatches make 2K - 1 ranges a pass, and K = 1000 (1999 ranges) is the
 * largest range profiled on an H200 (cuda-profiler-session.hpp). Every launch of a range also
 * fails with it (a device error ends the whole range), and its snapshot covers what all of them
 * write: 1000 launches keep a pass's fixed cost (~26 ms) below 0.03 ms a launch.
 */
export const captureRangeCap = 1000;

/** `--range` of a capture: `auto` (whole captured sequences, up to {@link captureRangeCap}) or at most K launches per range. */
export type CaptureRangeChoice = 'auto' | number;

/** What {@link planCaptureRanges} made. */
export interface CaptureRangePlan {
  /** The ranges in the order they run (by their first launch); each is consecutive launches of one captured sequence. */
  readonly ranges: readonly (readonly CaptureLaunch[])[];
  /** The launches per range at most. */
  readonly rangeLength: number;
  /** What the sequences' reader said (a version 1 capture, a launch that follows one that is not there). */
  readonly notes: readonly string[];
}

/**
 * Parses `--range` for a capture: `auto` or a whole number of launches >= 1.
 * @throws {InvalidArgumentError} for anything else.
 */
export function parseCaptureRange(text: string): CaptureRangeChoice {
  if (text === 'auto') return 'auto';
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new InvalidArgumentError(`"${text}" is not auto or a whole number of launches per range >= 1.`);
  return Number(text);
}

/** The default `--range` of a capture: `auto` on format version 2 (which records sequences), else 1. */
export function defaultCaptureRange(folder: CaptureFolder): CaptureRangeChoice {
  return folder.manifest.formatVersion === 2 ? 'auto' : 1;
}

/**
 * The ranges a capture's launches (all of them, or a selection) are replayed in: each captured
 * sequence (captureSequences: a launch whose predecessor is not among the launches starts one of
 * its own, from its own memory) cut into ranges of `choice` launches (`auto`: {@link captureRangeCap}).
 * A range of one launch is replayed alone, as with `--range 1`.
 */
export function planCaptureRanges(folder: CaptureFolder, choice: CaptureRangeChoice): CaptureRangePlan {
  const rangeLength = choice === 'auto' ? captureRangeCap : choice;
  const { sequences, notes } = captureSequences(folder);
  const ranges: CaptureLaunch[][] = [];
  for (const { launches } of sequences) {
    for (let first = 0; first < launches.length; first += rangeLength) ranges.push(launches.slice(first, first + rangeLength));
  }
  ranges.sort((a, b) => a[0]!.sequence - b[0]!.sequence);
  return { ranges, rangeLength, notes };
}

/** Sequence numbers in words: `0-3, 7, 9-10`. */
export function describeSequences(sequences: readonly number[]): string {
  const parts: string[] = [];
  for (let index = 0; index < sequences.length; ) {
    let end = index;
    while (end + 1 < sequences.length && sequences[end + 1] === sequences[end]! + 1) end += 1;
    parts.push(end === index ? `${sequences[index]}` : `${sequences[index]}-${sequences[end]}`);
    index = end + 1;
  }
  return parts.join(', ');
}

/** What `--range` chose, in words. */
export function describeRangeChoice(range: CaptureRangeChoice, rangeLength: number): string {
  if (range === 'auto') return `ranges: whole captured sequences, up to ${rangeLength} launches each`;
  return range === 1 ? 'each launch alone' : `ranges of up to ${range} launches of a captured sequence`;
}
