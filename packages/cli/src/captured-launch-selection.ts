import { InvalidArgumentError, type Command } from 'commander';
import type { CaptureFolder } from '@kreplay/native';
import { parseNonNegativeInteger, parsePositiveInteger } from './byte-size.js';
import { terminalText } from './terminal-text.js';
import { UsageError } from './usage-error.js';

/** Which launches of a capture to replay or profile, as ncu selects kernels (all of them by default). */
export interface CapturedLaunchSelection {
  /** A regular expression searched in each launch's function name as captured (mangled). */
  readonly kernelName?: string;
  /** Matching launches to pass over first. */
  readonly launchSkip?: number;
  /** Matching launches to take at most, after the skipped ones. */
  readonly launchCount?: number;
}

/** The flags of {@link CapturedLaunchSelection}. */
export const capturedLaunchSelectionFlags = ['--kernel-name', '--launch-skip', '--launch-count'] as const;

/** Parses --kernel-name: a regular expression (ECMAScript, as the capture library reads it). */
export function parseKernelName(text: string): string {
  try {
    new RegExp(text);
  } catch (error) {
    throw new InvalidArgumentError(`"${text}" is not a regular expression (${(error as Error).message}).`);
  }
  return text;
}

/** Adds the selection's flags to a command that replays captured launches (`what`: what they select from). */
export function withCapturedLaunchSelection(command: Command, what: string): Command {
  return command
    .option('--kernel-name <regex>', `${what}: only launches whose function name (as captured, mangled) matches (searched, not anchored)`, parseKernelName)
    .option('--launch-skip <n>', `${what}: skip the first n matching launches`, parseNonNegativeInteger)
    .option('--launch-count <n>', `${what}: take at most n matching launches`, parsePositiveInteger);
}

/**
 * The folder with only the selected launches, in their order. A damaged record's function is not
 * known, so a selection that leaves launches out keeps the damaged records between its first and
 * last selected launch (those it may have taken), and one that takes every launch keeps them all.
 * @throws UsageError when the selection leaves no launch, naming a few of the functions there are.
 */
export function selectCapturedLaunches(folder: CaptureFolder, selection: CapturedLaunchSelection, command: string): CaptureFolder {
  const pattern = selection.kernelName === undefined ? undefined : new RegExp(selection.kernelName);
  const matching = pattern === undefined ? folder.launches : folder.launches.filter((launch) => pattern.test(launch.function));
  const skip = selection.launchSkip ?? 0;
  const selected = matching.slice(skip, selection.launchCount === undefined ? undefined : skip + selection.launchCount);
  if (selected.length > 0 && selected.length === folder.launches.length) return folder;
  if (selected.length > 0) {
    const first = selected[0]!.sequence;
    const last = selected[selected.length - 1]!.sequence;
    return { ...folder, launches: selected, damaged: folder.damaged.filter((record) => record.sequence > first && record.sequence < last) };
  }
  const names = [...new Set(folder.launches.map((launch) => launch.function))];
  const shown = `${names.slice(0, 5).map(terminalText).join(', ')}${names.length > 5 ? `, ... (${names.length} functions)` : ''}`;
  const what =
    matching.length === 0
      ? `no captured launch of ${folder.directory} matches --kernel-name ${selection.kernelName}; it holds ${shown}`
      : `--launch-skip ${skip} passes over all ${matching.length} matching launches of ${folder.directory}`;
  throw new UsageError(command, what, 'Change the selection (kreplay replay --capture DIR --json lists every launch)');
}
