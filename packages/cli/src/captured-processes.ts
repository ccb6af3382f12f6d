import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CaptureFormatError, listCaptureProcesses, readCaptureFolder } from '@kreplay/native';
import { describeCaptureSummary, summarizeCapture, type CaptureSummary } from './capture-summary.js';

/** What the processes of a program captured under `kreplay capture` left in its folder. */
export interface CapturedProcesses {
  /** Each process's capture (processes/<pid>, by pid), or the one capture at the folder's top. */
  readonly captures: readonly CaptureSummary[];
  /** Process folders that hold no readable capture (a process that stopped before its manifest), and why. */
  readonly unreadable: readonly { readonly directory: string; readonly reason: string }[];
}

/**
 * Summarizes every capture in `out`: the capture at its top (a capture library of before
 * sub-captures), else each process's (src/capture/FORMAT.md in @kreplay/native, "Processes").
 */
export async function summarizeCapturedProcesses(out: string): Promise<CapturedProcesses> {
  if (existsSync(join(out, 'manifest.json'))) return { captures: [await summarizeCapture(await readCaptureFolder(out, { verifyBlobs: false }))], unreadable: [] };
  const captures: CaptureSummary[] = [];
  const unreadable: { directory: string; reason: string }[] = [];
  for (const { directory } of await listCaptureProcesses(out)) {
    try {
      captures.push(await summarizeCapture(await readCaptureFolder(directory, { verifyBlobs: false })));
    } catch (error) {
      if (!(error instanceof CaptureFormatError)) throw error;
      unreadable.push({ directory, reason: error.message });
    }
  }
  return { captures, unreadable };
}

/** The terminal form: one capture as describeCaptureSummary says it, several each under its process. */
export function describeCapturedProcesses(captured: CapturedProcesses, out: string): string {
  const { captures, unreadable } = captured;
  const notes = unreadable.map(({ directory, reason }) => `${directory}: no readable capture (${reason})\n`);
  if (captures.length === 1 && unreadable.length === 0) return describeCaptureSummary(captures[0]!);
  const launches = captures.reduce((sum, capture) => sum + capture.launches, 0);
  const processes = captures.length + unreadable.length;
  const header = `captured ${launches} launch${launches === 1 ? '' : 'es'} in ${processes} process${processes === 1 ? '' : 'es'} into ${out}, each its own capture (pass one to kreplay replay --capture or profile capture:)\n`;
  return [header, ...captures.map((capture) => `process ${capture.pid ?? '?'}: ${describeCaptureSummary(capture)}`), ...notes].join('');
}
