import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from '@kreplay/native';
import { writeTestCapture, type TestCaptureLaunch } from '@kreplay/native/test';
import { captureUnits } from './capture-graph-units.js';
import { planCaptureRanges } from './capture-ranges.js';
import { capturedGraphName, capturedLaunchName, parseGraphProfiling } from './graph-profiling.js';
import { describeLaunchHeading } from './profile-details-page.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-graph-profiling-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function launch(name: string, extra: Partial<TestCaptureLaunch> = {}): TestCaptureLaunch {
  return { function: name, module: new Uint8Array([1]), grid: [1, 1, 1], block: [1, 1, 1], parameters: new Uint8Array(0), memory: [], ...extra };
}

const node = (graph: string, nodeIndex: number, graphLaunch: number) => ({ graph: { graph, node: `0x${(0x900 + nodeIndex).toString(16)}`, nodeIndex, graphLaunch } });

/** a, then graph 0xa0's launch 0 (nodes k0, k1), graph 0xa0's launch 1 (k0, k1) right after it, then b: one captured sequence. */
async function graphFolder(name: string) {
  return readCaptureFolder(
    writeTestCapture(join(root, name), {
      formatVersion: 2,
      launches: [
        launch('a'),
        launch('k0', { ...node('0xa0', 0, 0), follows: 0 }),
        launch('k1', { ...node('0xa0', 1, 0) }),
        launch('k0', { ...node('0xa0', 0, 1), follows: null, sequenceBreak: 'graph-launch' }),
        launch('k1', { ...node('0xa0', 1, 1) }),
        launch('b'),
      ],
    }),
  );
}

describe('--graph-profiling', () => {
  it('takes node or graph, and nothing else', () => {
    expect(parseGraphProfiling('node')).toBe('node');
    expect(parseGraphProfiling('graph')).toBe('graph');
    for (const text of ['', 'Graph', 'nodes', 'range']) expect(() => parseGraphProfiling(text)).toThrow(InvalidArgumentError);
  });

  it('names a kernel node by its graph, node and graph launch, and other launches by their function', async () => {
    const folder = await graphFolder('names');
    expect(folder.launches[1]!.graph).toEqual({ graph: '0xa0', node: '0x900', nodeIndex: 0, graphLaunch: 0 });
    expect(folder.launches.map(capturedLaunchName)).toEqual([
      'a',
      'k0 [graph 0xa0 node 0, launch 0]',
      'k1 [graph 0xa0 node 1, launch 0]',
      'k0 [graph 0xa0 node 0, launch 1]',
      'k1 [graph 0xa0 node 1, launch 1]',
      'b',
    ]);
    expect(capturedGraphName(folder.launches[1]!.graph!, 2)).toBe('graph 0xa0, launch 0 (2 nodes)');
  });

  it('a profile row of a kernel node names it by graph and node in its heading, beside the name ncu prints', () => {
    const row = { dispatch: 3, kernel: 'k0', range: null, replayed: true, passes: 1, wallMs: 1, bytesCopied: 0, metrics: null, grid: [2, 1, 1] as [number, number, number], block: [64, 1, 1] as [number, number, number] };
    expect(describeLaunchHeading({ ...row, graph: { graph: '0xa0', node: '0x901', nodeIndex: 1, graphLaunch: 4 } }, 'sm_90')).toBe('  k0 [graph 0xa0 node 1, launch 4] (2, 1, 1)x(64, 1, 1), Device 0, CC 9.0');
    expect(describeLaunchHeading(row, 'sm_90')).toBe('  k0 (2, 1, 1)x(64, 1, 1), Device 0, CC 9.0');
  });

  it('node: the planned ranges as they are; graph: each captured graph launch a unit of its own, the launches around it ranges', async () => {
    const folder = await graphFolder('units');
    const plan = planCaptureRanges(folder, 'auto');
    const shape = (profiling: 'node' | 'graph') => captureUnits(plan.ranges, profiling).map((unit) => [unit.kind, unit.launches.map((each) => each.sequence)]);
    expect(shape('node')).toEqual([['range', [0, 1, 2]], ['range', [3, 4, 5]]]);
    expect(shape('graph')).toEqual([
      ['range', [0]],
      ['graph', [1, 2]],
      ['graph', [3, 4]],
      ['range', [5]],
    ]);
  });

  it('graph: a graph launch the ranges cut (--range 1, a range cap inside it) is still one unit, where its first node was', async () => {
    const folder = await graphFolder('cut');
    const shape = (choice: 1 | 2 | 'auto') =>
      captureUnits(planCaptureRanges(folder, choice).ranges, 'graph').map((unit) => [unit.kind, unit.launches.map((each) => each.sequence)]);
    const whole = [['range', [0]], ['graph', [1, 2]], ['graph', [3, 4]], ['range', [5]]];
    expect(shape(1)).toEqual(whole);
    expect(shape(2)).toEqual(whole);
    expect(shape('auto')).toEqual(whole);
  });

  it('is refused (exit 2) when it is neither node nor graph, or there is no capture to apply it to', async () => {
    for (const [args, message] of [
      [['replay', '--capture', root, '--graph-profiling', 'nodes'], /"nodes" is not node or graph/],
      [['replay', '--driver', 'host', '--graph-profiling', 'graph'], /--graph-profiling says how kernels captured inside CUDA graph launches are replayed, and there is no --capture/],
      [['profile', '--driver', 'host', '--metrics', 'x', '--graph-profiling', 'node'], /--graph-profiling says how kernels captured inside CUDA graph launches are profiled, and the workload is scatter/],
    ] as const) {
      const io = recordingIo();
      expect(await runCli([...args], io)).toBe(2);
      expect(io.err()).toMatch(message);
    }
  });

  it('graph with --measure kernel is refused (exit 2): a graph launch is measured as one workload', async () => {
    const folder = await graphFolder('measure');
    const io = recordingIo();
    expect(await runCli(['profile', `capture:${folder.directory}`, '--metrics', 'gpu__time_duration.sum', '--graph-profiling', 'graph', '--measure', 'kernel'], io)).toBe(2);
    expect(io.err()).toMatch(/--graph-profiling graph measures each captured graph launch as one workload, and --measure kernel measures each kernel alone/);
  });
});
