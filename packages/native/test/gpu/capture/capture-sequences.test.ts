/**
 * Captured sequences from a real CUDA program (capture-sequences-program.cu, built here with nvcc):
 * launches on two streams with a memset, a copy from the host, a host function, a wait across streams,
 * a launch left out by the selection and a copy to the host between them. The capture must link each
 * launch to the one before exactly as the program's order allows, record the work between them, and
 * each captured sequence must replay, launch after launch, to the program's memory (checkRange).
 * Skips without a CUDA device (and on the fake libcuda, which has no CUPTI injection) or without nvcc.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCaptureFolder } from '../../../src/index.js';
import { capturedProgramSkip as skip, expectSequencesReplay, runUnderCapture, useCompiledProgram } from './captured-cuda-program.js';

describe.skipIf(skip !== '')(`captured sequences of a CUDA program${skip ? ` (${skip})` : ''}`, () => {
  const built = useCompiledProgram('capture-sequences-program');

  it('links each launch to the one before as the program allows, with the work between them, and each sequence replays to the program memory', async () => {
    const directory = join(built.folder(), 'capture');
    const result = runUnderCapture(built.program(), directory, 'kreplay_sequence_touch');
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

    await expectSequencesReplay(capture, [[0, 1, 2], [3], [4], [5], [6, 7, 8]]);
  }, 180_000);
});
