/**
 * Captured sequences from a real CUDA program (capture-sequences-program.cu, built here with nvcc):
 * launches on two streams with a memset, a copy from the host, a host function, a wait across streams,
 * a launch left out by the selection and a copy to the host between them. The capture must link each
 * launch to the one before exactly as the program's order allows, record the work between them, and
 * each captured sequence must replay, launch after launch, to the program's memory (checkRange).
 * Skips without a CUDA device (and on the fake libcuda, which has no CUPTI injection) or without nvcc.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from '../../../src/capture/nvcc.js';
import { captureLibraryPath, captureSequences, openCapture, readCaptureFolder } from '../../../src/index.js';
import { probeCudaForTests } from '../cuda-availability.js';

const cuda = await probeCudaForTests();
const found = findNvcc();
const skip = !cuda.available ? cuda.reason : cuda.fake ? 'the fake libcuda has no CUPTI injection' : 'missing' in found ? found.missing : '';

/** The program's source in the repository, or beside the bundled test (scripts/bundle-gpu-tests.mjs copies it). */
function source(): string {
  const candidates = [new URL('./capture-sequences-program.cu', import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}

describe.skipIf(skip !== '')(`captured sequences of a CUDA program${skip ? ` (${skip})` : ''}`, () => {
  let folder = '';
  let program = '';

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'kreplay-capture-sequences-gpu-'));
    program = join(folder, 'capture-sequences-program');
    nvcc((found as { path: string }).path, ['-arch=native', '-o', program, source()]);
  }, 180_000);
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('links each launch to the one before as the program allows, with the work between them, and each sequence replays to the program memory', async () => {
    const directory = join(folder, 'capture');
    const result = spawnSync(program, [], {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        CUDA_INJECTION64_PATH: captureLibraryPath(),
        KREPLAY_CAPTURE_DIR: directory,
        KREPLAY_CAPTURE_EVERY_LAUNCH: '1',
        KREPLAY_CAPTURE_KERNEL_NAME: 'kreplay_sequence_touch',
      },
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('ok');
    const capture = await readCaptureFolder(directory);
    expect(capture.damaged).toEqual([]);
    expect(capture.manifest.formatVersion).toBe(2);
    expect(capture.launches).toHaveLength(9);
    expect(capture.launches.map((launch) => [launch.follows, launch.sequenceBreak])).toEqual([
      [null, 'first-launch'],
      [0, null],
      [1, null],
      [null, 'other-stream'],
      [null, 'host-function'],
      [null, 'cross-stream-wait'],
      [null, 'uncaptured-launch'],
      [6, null],
      [7, null],
    ]);
    expect(capture.launches[1]!.workBefore.map((work) => work.kind)).toEqual(['memset']);
    expect(capture.launches[2]!.workBefore.map((work) => work.kind)).toEqual(['upload']);
    expect(capture.launches[8]!.workBefore.map((work) => work.kind)).toEqual(['download']);
    expect(capture.manifest.sequences).toBe(5);
    expect(capture.manifest.cost?.launches).toBe(9);
    expect(capture.manifest.cost?.deviceBytesHashed).toBeGreaterThan(0);

    const { sequences } = captureSequences(capture);
    expect(sequences.map((sequence) => sequence.launches.map((launch) => launch.sequence))).toEqual([[0, 1, 2], [3], [4], [5], [6, 7, 8]]);
    await using replay = await openCapture(capture);
    await using queue = replay.agent.createQueue();
    for (const sequence of sequences) {
      const check = await replay.checkRange(sequence.launches, queue);
      expect(check.launches.map((launch) => launch.reproduced)).toEqual(sequence.launches.map(() => true));
      expect(check.pagesRepaired).toBe(0);
    }
  }, 180_000);
});
