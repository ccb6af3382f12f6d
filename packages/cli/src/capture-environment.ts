import { resolve } from 'node:path';
import type { KernelNameBase } from '@kreplay/native';
import { describeKernelName } from './kernel-name-option.js';

/** The selection of `kreplay capture`, as the capture library reads it (KREPLAY_CAPTURE_*). */
export interface CaptureSelection {
  /** A kernel name, matched whole, or `regex:EXPRESSION` (C++ std::regex, ECMAScript grammar), searched. */
  readonly kernelName?: string;
  /** The name kernelName matches (ncu's --kernel-name-base); absent: the function's. */
  readonly kernelNameBase?: KernelNameBase;
  readonly launchSkip?: number;
  readonly launchCount?: number;
  readonly everyLaunch?: boolean;
  /** False: only launches between cuProfilerStart and cuProfilerStop count (ncu's --profile-from-start off). */
  readonly profileFromStart?: boolean;
}

/** How the capture library works inside the program, as `kreplay capture` chose it (recorded in its --json). */
export interface CaptureSettings {
  /** Pinned host memory the changed pages are copied through (KREPLAY_CAPTURE_STAGING_BYTES), at least 64 KiB. */
  readonly stagingBytes: number;
  /** Writer threads (KREPLAY_CAPTURE_WRITER_THREADS): a number from 1 to 64, or `auto`. */
  readonly writerThreads: number | 'auto';
}

/** The staging `kreplay capture` gives the library unless told (its own default too): 256 MiB. */
export const DEFAULT_STAGING_BYTES = 256 * 2 ** 20;
/** The least staging the library takes: one 64 KiB page. */
export const SMALLEST_STAGING_BYTES = 64 * 2 ** 10;
/** The most writer threads the library takes. */
export const MOST_WRITER_THREADS = 64;

const capturePrefix = 'KREPLAY_CAPTURE_';

/**
 * The environment of a program run under capture: `base` without any KREPLAY_CAPTURE_* variable of
 * its own, plus CUDA_INJECTION64_PATH naming the capture library, the folder, the selection, the
 * settings and the command line for the manifest.
 */
export function captureEnvironment(
  base: NodeJS.ProcessEnv,
  options: {
    readonly libraryPath: string;
    readonly directory: string;
    readonly command: readonly string[];
    readonly selection: CaptureSelection;
    readonly settings: CaptureSettings;
  },
): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(base).filter(([name]) => !name.startsWith(capturePrefix)));
  const { selection } = options;
  environment['CUDA_INJECTION64_PATH'] = options.libraryPath;
  environment['KREPLAY_CAPTURE_DIR'] = resolve(options.directory);
  environment['KREPLAY_CAPTURE_COMMAND'] = JSON.stringify(options.command);
  if (selection.kernelName !== undefined) environment['KREPLAY_CAPTURE_KERNEL_NAME'] = selection.kernelName;
  if (selection.kernelNameBase !== undefined) environment['KREPLAY_CAPTURE_KERNEL_NAME_BASE'] = selection.kernelNameBase;
  if (selection.launchSkip !== undefined) environment['KREPLAY_CAPTURE_LAUNCH_SKIP'] = String(selection.launchSkip);
  if (selection.launchCount !== undefined) environment['KREPLAY_CAPTURE_LAUNCH_COUNT'] = String(selection.launchCount);
  if (selection.everyLaunch === true) environment['KREPLAY_CAPTURE_EVERY_LAUNCH'] = '1';
  if (selection.profileFromStart === false) environment['KREPLAY_CAPTURE_PROFILE_FROM_START'] = 'off';
  environment['KREPLAY_CAPTURE_STAGING_BYTES'] = String(options.settings.stagingBytes);
  environment['KREPLAY_CAPTURE_WRITER_THREADS'] = String(options.settings.writerThreads);
  return environment;
}

/** In words, what a selection captures: `the first launch of each kernel whose function name matches /gemm/`. */
export function describeSelection(selection: CaptureSelection): string {
  const matching = selection.kernelName === undefined ? 'kernel' : `kernel whose ${describeKernelName(selection.kernelName, selection.kernelNameBase ?? 'function')}`;
  const skip = selection.launchSkip ? `, after skipping ${selection.launchSkip}` : '';
  const count = selection.launchCount === undefined ? '' : `, at most ${selection.launchCount}`;
  const span = selection.profileFromStart === false ? ', between cuProfilerStart and cuProfilerStop' : '';
  if (selection.everyLaunch || selection.launchSkip !== undefined || selection.launchCount !== undefined) {
    return `every launch of every ${matching}${skip}${count}${span}`;
  }
  return `the first launch of each ${matching}${span}`;
}
