import type { Command } from 'commander';
import { kernelNames, matchKernelNames } from '@kreplay/native';
import type { CaptureFolder, KernelNameBase } from '@kreplay/native';
import { parseNonNegativeInteger, parsePositiveInteger } from './byte-size.js';
import { kernelNameBaseOption, kernelNameHelp, parseKernelNameFilter } from './kernel-name-option.js';
import { terminalText } from './terminal-text.js';
import { UsageError } from './usage-error.js';

/** Which launches of a capture to replay or profile, as ncu selects kernels (all of them by default). */
export interface CapturedLaunchSelection {
  /** A kernel name, matched whole, or `regex:EXPRESSION`, searched, in the name kernelNameBase names. */
  readonly kernelName?: string;
  /** The name kernelName matches (ncu's --kernel-name-base); absent: the function's. */
  readonly kernelNameBase?: KernelNameBase;
  /** Matching launches to pass over first. */
  readonly launchSkip?: number;
  /** Matching launches to take at most, after the skipped ones. */
  readonly launchCount?: number;
}

/** The flags of {@link CapturedLaunchSelection}. */
export const capturedLaunchSelectionFlags = ['--kernel-name', '--kernel-name-base', '--launch-skip', '--launch-count'] as const;

/** Adds the selection's flags to a command that replays captured launches (`what`: what they select from). */
export function withCapturedLaunchSelection(command: Command, what: string): Command {
  return command
    .option('--kernel-name <name>', `${what}: only launches of these kernels: ${kernelNameHelp}`, parseKernelNameFilter)
    .addOption(kernelNameBaseOption(what))
    .option('--launch-skip <n>', `${what}: skip the first n matching launches`, parseNonNegativeInteger)
    .option('--launch-count <n>', `${what}: take at most n matching launches`, parsePositiveInteger);
}

/** The launches of `folder` whose kernel the selection's name selects (every launch without one). */
function matchingLaunches(folder: CaptureFolder, selection: CapturedLaunchSelection): CaptureFolder['launches'] {
  if (selection.kernelName === undefined) return folder.launches;
  const functions = [...new Set(folder.launches.map((launch) => launch.function))];
  const matches = matchKernelNames({ name: selection.kernelName, base: selection.kernelNameBase ?? 'function' }, functions);
  const selected = new Set(functions.filter((_, index) => matches[index]));
  return folder.launches.filter((launch) => selected.has(launch.function));
}

/**
 * The folder with only the selected launches, in their order. The name is matched as the capture
 * library matches it (the same code), so a capture and its replay select the same kernels. A
 * damaged record's function is not known, so a selection that leaves launches out keeps the
 * damaged records between its first and last selected launch (those it may have taken), and one
 * that takes every launch keeps them all.
 * @throws UsageError when the selection leaves no launch, naming a few of the functions there are.
 */
export function selectCapturedLaunches(folder: CaptureFolder, selection: CapturedLaunchSelection, command: string): CaptureFolder {
  const matching = matchingLaunches(folder, selection);
  const skip = selection.launchSkip ?? 0;
  const selected = matching.slice(skip, selection.launchCount === undefined ? undefined : skip + selection.launchCount);
  if (selected.length > 0 && selected.length === folder.launches.length) return folder;
  if (selected.length > 0) {
    const first = selected[0]!.sequence;
    const last = selected[selected.length - 1]!.sequence;
    return { ...folder, launches: selected, damaged: folder.damaged.filter((record) => record.sequence > first && record.sequence < last) };
  }
  const base = selection.kernelNameBase ?? 'function';
  const names = [...new Set(folder.launches.map((launch) => kernelNames(launch.function)[base]))];
  const shown = `${names.slice(0, 5).map(terminalText).join(', ')}${names.length > 5 ? `, ... (${names.length} functions)` : ''}`;
  const what =
    matching.length === 0
      ? `no captured launch of ${folder.directory} matches --kernel-name ${selection.kernelName} (--kernel-name-base ${base}); it holds ${shown}`
      : `--launch-skip ${skip} passes over all ${matching.length} matching launches of ${folder.directory}`;
  throw new UsageError(command, what, 'Change the selection (kreplay replay --capture DIR --json lists every launch)');
}
