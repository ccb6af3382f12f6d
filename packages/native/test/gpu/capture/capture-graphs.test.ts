/**
 * Kernel nodes of a CUDA graph captured from a real program (capture-graphs-program.cu, built here with
 * nvcc): a memset and two kernels captured from a stream into a graph and launched three times. Each
 * graph launch's kernel nodes are captured as a sequence (a `graph-launch` break, then the second node
 * following the first, the memset node as work before the first), the program's results are those of
 * the same work launched plainly, and each captured sequence replays, node after node, to the
 * program's memory (checkRange). Skips without a CUDA device (and on the fake libcuda, which has no
 * CUPTI injection) or without nvcc.
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
  const candidates = [new URL('./capture-graphs-program.cu', import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}

describe.skipIf(skip !== '')(`kernel nodes of a CUDA graph${skip ? ` (${skip})` : ''}`, () => {
  let folder = '';
  let program = '';

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'kreplay-capture-graphs-gpu-'));
    program = join(folder, 'capture-graphs-program');
    nvcc((found as { path: string }).path, ['-arch=native', '-o', program, source()]);
  }, 180_000);
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('captures each graph launch node by node, leaves the results unchanged, and each sequence replays', async () => {
    const directory = join(folder, 'capture');
    const result = spawnSync(program, [], {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        CUDA_INJECTION64_PATH: captureLibraryPath(),
        KREPLAY_CAPTURE_DIR: directory,
        KREPLAY_CAPTURE_EVERY_LAUNCH: '1',
        KREPLAY_CAPTURE_KERNEL_NAME: 'regex:^kreplay_graph_',
      },
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('ok');
    const capture = await readCaptureFolder(directory);
    expect(capture.damaged).toEqual([]);
    expect(capture.manifest.graphLaunches).toBe(3);
    expect(capture.launches.map((launch) => launch.function)).toEqual([0, 1, 2].flatMap(() => ['_Z19kreplay_graph_scalePfmf', '_Z17kreplay_graph_sumPfPKfm']));
    expect(capture.launches.map((launch) => [launch.follows, launch.sequenceBreak, launch.graph?.nodeIndex, launch.graph?.graphLaunch])).toEqual([
      [null, 'graph-launch', 1, 0],
      [0, null, 2, 0],
      [null, 'graph-launch', 1, 1],
      [2, null, 2, 1],
      [null, 'graph-launch', 1, 2],
      [4, null, 2, 2],
    ]);
    for (const sequence of [0, 2, 4]) expect(capture.launches[sequence]!.workBefore.map((work) => work.kind)).toContain('memset');
    expect(capture.manifest.notCaptured['stream-capture']).toBe(2);

    const { sequences } = captureSequences(capture);
    expect(sequences.map((sequence) => sequence.launches.map((launch) => launch.sequence))).toEqual([[0, 1], [2, 3], [4, 5]]);
    await using replay = await openCapture(capture);
    await using queue = replay.agent.createQueue();
    for (const sequence of sequences) {
      const check = await replay.checkRange(sequence.launches, queue);
      expect(check.launches.map((launch) => launch.reproduced)).toEqual(sequence.launches.map(() => true));
      expect(check.pagesRepaired).toBe(0);
    }
  }, 180_000);
});
