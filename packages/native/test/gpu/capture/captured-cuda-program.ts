/**
 * The set-up the capture GPU tests share: a small CUDA program of this folder built with nvcc, run
 * under the capture library, and each captured sequence of its capture replayed to the program's
 * memory. Skips without a CUDA device (and on the fake libcuda, which has no CUPTI injection) or
 * without nvcc.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { findNvcc, nvcc } from '../../../src/capture/nvcc.js';
import { captureLibraryPath, captureSequences, openCapture, type CaptureFolder } from '../../../src/index.js';
import { probeCudaForTests } from '../cuda-availability.js';

const cuda = await probeCudaForTests();
const found = findNvcc();

/** Why the capture GPU tests cannot run here, or '' when they can. */
export const capturedProgramSkip = !cuda.available ? cuda.reason : cuda.fake ? 'the fake libcuda has no CUPTI injection' : 'missing' in found ? found.missing : '';

/** A program's source in the repository, or beside the bundled test (scripts/bundle-gpu-tests.mjs copies it). */
function source(file: string): string {
  const candidates = [new URL(`./${file}`, import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}

/**
 * Builds `<name>.cu` of this folder into a temporary folder before the suite's tests (removed after
 * them). Returns where the program and the folder are, once built.
 */
export function useCompiledProgram(name: string): { readonly folder: () => string; readonly program: () => string } {
  let folder = '';
  let program = '';
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), `kreplay-${name}-gpu-`));
    program = join(folder, name);
    nvcc((found as { path: string }).path, ['-arch=native', '-o', program, source(`${name}.cu`)]);
  }, 180_000);
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return { folder: () => folder, program: () => program };
}

/** Runs `program` with the capture library injected, capturing every launch `kernelName` selects into `directory`. */
export function runUnderCapture(program: string, directory: string, kernelName: string): SpawnSyncReturns<string> {
  return spawnSync(program, [], {
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      CUDA_INJECTION64_PATH: captureLibraryPath(),
      KREPLAY_CAPTURE_DIR: directory,
      KREPLAY_CAPTURE_EVERY_LAUNCH: '1',
      KREPLAY_CAPTURE_KERNEL_NAME: kernelName,
    },
  });
}

/**
 * Checks that the capture's sequences are `expected` (each a list of launch sequence numbers), and
 * that each replays, launch after launch, to the program's memory with no page repaired.
 */
export async function expectSequencesReplay(capture: CaptureFolder, expected: readonly (readonly number[])[]): Promise<void> {
  const { sequences } = captureSequences(capture);
  expect(sequences.map((sequence) => sequence.launches.map((launch) => launch.sequence))).toEqual(expected);
  await using replay = await openCapture(capture);
  await using queue = replay.agent.createQueue();
  for (const sequence of sequences) {
    const check = await replay.checkRange(sequence.launches, queue);
    expect(check.launches.map((launch) => launch.reproduced)).toEqual(sequence.launches.map(() => true));
    expect(check.pagesRepaired).toBe(0);
  }
}
