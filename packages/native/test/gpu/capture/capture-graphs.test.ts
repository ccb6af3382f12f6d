/**
 * Kernel nodes of a CUDA graph captured from a real program (capture-graphs-program.cu, built here with
 * nvcc): a memset and two kernels captured from a stream into a graph and launched three times. Each
 * graph launch's kernel nodes are captured as a sequence (a `graph-launch` break, then the second node
 * following the first, the memset node as work before the first), the program's results are those of
 * the same work launched plainly, and each captured sequence replays, node after node, to the
 * program's memory (checkRange). Skips without a CUDA device (and on the fake libcuda, which has no
 * CUPTI injection) or without nvcc.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCaptureFolder } from '../../../src/index.js';
import { capturedProgramSkip as skip, expectSequencesReplay, runUnderCapture, useCompiledProgram } from './captured-cuda-program.js';

describe.skipIf(skip !== '')(`kernel nodes of a CUDA graph${skip ? ` (${skip})` : ''}`, () => {
  const built = useCompiledProgram('capture-graphs-program');

  it('captures each graph launch node by node, leaves the results unchanged, and each sequence replays', async () => {
    const directory = join(built.folder(), 'capture');
    const result = runUnderCapture(built.program(), directory, 'regex:^kreplay_graph_');
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

    await expectSequencesReplay(capture, [[0, 1], [2, 3], [4, 5]]);
  }, 180_000);
});
