import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { capturedKernelCode } from '@kreplay/native';
import type { CaptureCost, CaptureFolder } from '@kreplay/native';
import { formatBytes } from '@kreplay/bench';
import { terminalText } from './terminal-text.js';

/** What `kreplay capture` reports of the folder the program left. */
export interface CaptureSummary {
  readonly directory: string;
  /** The process captured, when the manifest says (a capture library of before sub-captures did not). */
  readonly pid: number | null;
  readonly command: readonly string[];
  readonly device: { readonly name: string; readonly architecture: string };
  /** False when the program ended before the capture library finished (a crash, a kill). */
  readonly complete: boolean;
  readonly launches: number;
  /**
   * Each distinct kernel with its captured launches, in order of first capture, and what the cubin
   * it ran from says of its code (null where the module holds no cubin for the capture's architecture
   * that can be read: PTX only, a zstd-compressed fatbin).
   */
  readonly kernels: readonly CapturedKernelSummary[];
  /** Bytes of all files in the folder (blobs, records, manifest), and how many blobs. */
  readonly bytesStored: number;
  readonly blobs: number;
  /** Launches or allocations not captured, by reason (only reasons with a count). */
  readonly notCaptured: Readonly<Record<string, number>>;
  /** The folder's format version. */
  readonly formatVersion: number;
  /** How many captured sequences the complete launches form; null for a version 1 capture, which records none. */
  readonly sequences: number | null;
  /** Why sequences after the first started, by reason (only reasons with a count). */
  readonly sequenceBreaks: Readonly<Record<string, number>>;
  /**
   * Graph launches (`cuGraphLaunch`) whose kernel nodes were captured node by node; null for a
   * capture written before graph capture, which records none.
   */
  readonly graphLaunches: number | null;
  /** What capturing cost the program; null for a version 1 capture. */
  readonly cost: CaptureCost | null;
  /** Records that are there but damaged, with the reason. */
  readonly damaged: readonly { readonly file: string; readonly reason: string }[];
  /** Temporary files a writer left (a launch it was writing when the program stopped). */
  readonly incomplete: readonly string[];
  /** Why the capture library selected nothing (a kernel-name pattern it could not compile), or null. */
  readonly selectionError: string | null;
}

/** One distinct kernel of a capture. */
export interface CapturedKernelSummary {
  readonly function: string;
  readonly launches: number;
  /** Bytes of its machine code, or null. */
  readonly codeBytes: number | null;
  /** Registers per thread, or null. */
  readonly registers: number | null;
}

async function filesUnder(directory: string): Promise<{ readonly bytes: number; readonly files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      const inner = await filesUnder(path);
      bytes += inner.bytes;
      files += inner.files;
    } else if (entry.isFile()) {
      bytes += (await stat(path)).size;
      files += 1;
    }
  }
  return { bytes, files };
}

/** The summary of a capture folder as readCaptureFolder read it. */
export async function summarizeCapture(folder: CaptureFolder): Promise<CaptureSummary> {
  const kernels = new Map<string, number>();
  for (const launch of folder.launches) kernels.set(launch.function, (kernels.get(launch.function) ?? 0) + 1);
  const stored = await filesUnder(folder.directory);
  const blobs = await filesUnder(join(folder.directory, 'blobs'));
  const codes = await capturedKernelCode(folder);
  const { manifest } = folder;
  return {
    directory: folder.directory,
    pid: manifest.process?.pid ?? null,
    command: manifest.command,
    device: manifest.device,
    complete: manifest.complete,
    launches: folder.launches.length,
    kernels: [...kernels].map(([name, launches]) => ({
      function: name,
      launches,
      codeBytes: codes.get(name)?.codeBytes ?? null,
      registers: codes.get(name)?.registers ?? null,
    })),
    bytesStored: stored.bytes,
    blobs: blobs.files,
    notCaptured: Object.fromEntries(Object.entries(manifest.notCaptured).filter(([, count]) => count > 0)),
    formatVersion: manifest.formatVersion,
    sequences: manifest.sequences ?? null,
    sequenceBreaks: Object.fromEntries(Object.entries(manifest.sequenceBreaks ?? {}).filter(([, count]) => count > 0)),
    graphLaunches: manifest.graphLaunches ?? null,
    cost: manifest.cost ?? null,
    damaged: folder.damaged.map(({ file, reason }) => ({ file, reason })),
    incomplete: folder.incomplete,
    selectionError: manifest.selectionError ?? null,
  };
}

/** ` (1.2 KiB of code, 40 registers)` when the cubin said, else nothing. */
function describeCode(kernel: CapturedKernelSummary): string {
  if (kernel.codeBytes === null) return '';
  return ` (${formatBytes(kernel.codeBytes)} of code${kernel.registers === null ? '' : `, ${kernel.registers} registers`})`;
}

/** `  2 captured sequences; started anew: other-stream 1`, or what a version 1 capture lacks. */
function describeSequences(summary: CaptureSummary): string {
  if (summary.sequences === null) return `  captured sequences: not recorded (a capture of format version ${summary.formatVersion})`;
  const breaks = Object.entries(summary.sequenceBreaks);
  const started = breaks.length === 0 ? '' : `; started anew: ${breaks.map(([reason, count]) => `${terminalText(reason)} ${count}`).join(', ')}`;
  return `  ${summary.sequences} captured sequence${summary.sequences === 1 ? '' : 's'}${started}`;
}

/** `  capture cost: 12.0 s, the program waited 3.1 s; 4.0 GiB hashed on the device, 1.0 GiB copied to the host`. */
function describeCost(cost: CaptureCost): string {
  return (
    `  capture cost: ${cost.wallSeconds.toFixed(1)} s, the program waited ${cost.programWaitSeconds.toFixed(1)} s; ` +
    `${formatBytes(cost.deviceBytesHashed)} hashed on the device, ${formatBytes(cost.bytesCopiedToHost)} copied to the host, ` +
    `${formatBytes(cost.bytesStored)} stored in ${cost.blobsStored} new blob${cost.blobsStored === 1 ? '' : 's'}`
  );
}

/** The terminal form of a capture summary, with the text the capture supplied escaped ({@link terminalText}). */
export function describeCaptureSummary(summary: CaptureSummary): string {
  const notCaptured = Object.entries(summary.notCaptured);
  const device = `${terminalText(summary.device.name)} (${terminalText(summary.device.architecture)})`;
  const lines = [
    `captured ${summary.launches} launch${summary.launches === 1 ? '' : 'es'} of ${summary.kernels.length} kernel${summary.kernels.length === 1 ? '' : 's'} on ${device} into ${summary.directory}`,
    `  ${formatBytes(summary.bytesStored)} stored in ${summary.blobs} blob${summary.blobs === 1 ? '' : 's'}${summary.complete ? '' : '; the capture did not finish (the program ended before the capture library did)'}`,
    ...(summary.selectionError === null ? [] : [`  nothing was selected: ${terminalText(summary.selectionError)}`]),
    `  not captured: ${notCaptured.length === 0 ? 'nothing' : notCaptured.map(([reason, count]) => `${terminalText(reason)} ${count}`).join(', ')}`,
    describeSequences(summary),
    ...(summary.graphLaunches === null || summary.graphLaunches === 0
      ? []
      : [`  kernel nodes of ${summary.graphLaunches} graph launch${summary.graphLaunches === 1 ? '' : 'es'} captured node by node`]),
    ...(summary.cost === null ? [] : [describeCost(summary.cost)]),
    ...summary.kernels.slice(0, 20).map((kernel) => `  ${String(kernel.launches).padStart(5)}  ${terminalText(kernel.function)}${describeCode(kernel)}`),
    ...(summary.kernels.length > 20 ? [`  ... and ${summary.kernels.length - 20} more kernels (--json lists them all)`] : []),
    ...summary.damaged.map((damaged) => `  damaged: ${terminalText(damaged.reason)}`),
    ...summary.incomplete.map((file) => `  left unfinished: ${terminalText(file)}`),
  ];
  return `${lines.join('\n')}\n`;
}
