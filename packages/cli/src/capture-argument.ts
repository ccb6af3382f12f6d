import { CaptureFormatError, readCaptureFolder } from '@kreplay/native';
import type { CaptureFolder } from '@kreplay/native';
import { UsageError } from './usage-error.js';
import { terminalText } from './terminal-text.js';

/**
 * Reads the capture folder a command line names. An empty path (which would read the current
 * folder), or a folder that is no readable capture, is a usage error of `command`, led by `given`
 * (the argument as typed, e.g. `--capture DIR` or `capture:DIR`) and carrying the reader's own
 * explanation and fix; other failures pass through.
 * @throws {UsageError} for an empty path or a folder that holds no readable capture.
 */
export async function readCaptureArgument(directory: string, command: string, given: string): Promise<CaptureFolder> {
  if (directory === '') throw new UsageError(command, `${given.trimEnd()} names no folder: the path is empty`, 'Pass the folder that `kreplay capture -o` wrote');
  try {
    return await readCaptureFolder(directory);
  } catch (error) {
    if (!(error instanceof CaptureFormatError)) throw error;
    const problem = error.message.replace(/^\[native\] \[capture\] /, '').replace(/\.$/, '');
    throw new UsageError(command, `${given}: ${problem}`, `See kreplay ${command} --help`, error);
  }
}

/** ` (N damaged: the first one's reason)` for a folder with damaged records, else empty: what a command adds to "holds no complete launch". */
export function damagedRecordsNote(folder: CaptureFolder): string {
  return folder.damaged.length > 0 ? ` (${folder.damaged.length} damaged: ${terminalText(folder.damaged[0]!.reason)})` : '';
}
