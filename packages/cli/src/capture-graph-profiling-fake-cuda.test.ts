import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureReplayResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { captureLibraryPath, readCaptureFolder } from '@kreplay/native';
import type { CaptureWork } from '@kreplay/native';
import { captureFixtureAxpyParameters, writeTestCapture, type TestCaptureLaunch } from '@kreplay/native/test';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaptureReplayReport } from './capture-replay-run.js';

// `kreplay replay --capture` of kernels captured inside a CUDA graph launch, end to end in a spawned
// kreplay over native's fake libcuda: per node (the default), named by graph and node; and with
// --graph-profiling graph, each captured graph launch's nodes made one CUDA graph, replayed as one
// workload. Captures written here (a graph launch's nodes as records), and one a program makes with
// the capture library injected (native's kreplay-capture-test --drive-graph-injection).
const nativeDirectory = fileURLToPath(new URL('../../native/', import.meta.url));
const fakeCuda = join(nativeDirectory, 'build/fake-cuda/libcuda.so.1');
if (!existsSync(fakeCuda)) spawnSync(join(nativeDirectory, 'scripts/build-fake-cuda.sh'), { stdio: 'ignore', timeout: 300_000 });
const fakeRunsGraphs = existsSync(fakeCuda) && readFileSync(fakeCuda).includes('cuGraphInstantiateWithFlags');
const built = (path: string) => join(nativeDirectory, 'build', path);
const driveProgram = built('tests/kreplay-capture-test');
const fakeCupti = built('tests/fake-cupti/libcupti.so');
const driveBuilt = fakeRunsGraphs && [driveProgram, fakeCupti, built('Release/libkreplay-capture.so')].every((path) => existsSync(path));
const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ptx = readFileSync(join(nativeDirectory, 'test/gpu/kernels/capture-fixture-axpy.ptx'));
const root = mkdtempSync(join(tmpdir(), 'kreplay-replay-graphs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const count = 4096;
const bytes = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));
const axpy = (y: Float32Array, x: Float32Array) => y.map((value, index) => Math.fround(Math.fround(3 * x[index]!) + value));

/**
 * Launch 0 an ordinary axpy launch; launches 1-3 the kernel nodes 0-2 of graph 0x7a00's launch 0,
 * with a memset node zeroing y's first 64 floats between nodes 1 and 2 (node 2's work before).
 * Each launch's memory before it is what the one before left.
 */
function graphCapture(name: string, base: number): string {
  let y = Float32Array.from({ length: count }, (_, index) => index * 0.5);
  const x = Float32Array.from({ length: count }, (_, index) => (index % 13) - 6);
  const launches: TestCaptureLaunch[] = [];
  for (let index = 0; index < 4; index += 1) {
    const work: CaptureWork[] = [];
    if (index === 3) {
      y = y.slice();
      y.fill(0, 0, 64);
      work.push({ kind: 'memset', stream: '0x0', address: base, bytes: 256, value: 0, elementBytes: 4 });
    }
    const after = axpy(y, x);
    const graph = index === 0 ? {} : { graph: { graph: '0x7a00', node: `0x7b0${index}`, nodeIndex: index - 1, graphLaunch: 0 } };
    const sequence = index === 1 ? { follows: null, sequenceBreak: 'graph-launch' } : {};
    launches.push({
      function: 'kreplay_capture_fixture_axpy',
      module: ptx,
      grid: [16, 1, 1],
      block: [256, 1, 1],
      parameters: captureFixtureAxpyParameters(base, base + 2 ** 21, 3, count),
      memory: [
        { base, kind: 'device', before: bytes(y), after: bytes(after) },
        { base: base + 2 ** 21, kind: 'device', before: bytes(x) },
      ],
      workBefore: work,
      ...graph,
      ...sequence,
    });
    y = after;
  }
  return writeTestCapture(join(root, name), { formatVersion: 2, device: { name: 'Fake CUDA device (CPU)', architecture: 'sm_90' }, launches });
}

function kreplay(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CUPTI_LIBRARY_DIR: join(nativeDirectory, 'build/fake-cuda') };
  return new Promise((resolve) => {
    execFile(process.execPath, [binPath, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

const replay = (capture: string, extra: readonly string[]) => kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--passes', '3', '--verify', 'full', '--json', ...extra]);

describe.skipIf(!existsSync(fakeCuda))('kreplay replay --capture of kernels captured inside a graph launch, on the fake libcuda', () => {
  it('node (the default): each kernel node its own result, named by graph and node, in the range of its graph launch; every launch reproduced', async () => {
    const capture = graphCapture('node', 0x3e1000000000);
    for (const extra of [[], ['--graph-profiling', 'node']]) {
      const { code, stdout, stderr } = await replay(capture, extra);
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as CaptureReplayReport;
      expect(jsonSchemaProblem(captureReplayResultJsonSchema, report)).toBeNull();
      expect(report).toMatchObject({ graphProfiling: 'node', reproduced: 4, mismatched: [], failed: [] });
      expect(report.ranges.map((range) => [range.launches, range.graph])).toEqual([[[1, 2, 3], undefined]]);
      expect(report.launches.map((launch) => [launch.sequence, launch.function, launch.range, launch.outcome])).toEqual([
        [0, 'kreplay_capture_fixture_axpy', null, 'reproduced'],
        [1, 'kreplay_capture_fixture_axpy [graph 0x7a00 node 0, launch 0]', 0, 'reproduced'],
        [2, 'kreplay_capture_fixture_axpy [graph 0x7a00 node 1, launch 0]', 0, 'reproduced'],
        [3, 'kreplay_capture_fixture_axpy [graph 0x7a00 node 2, launch 0]', 0, 'reproduced'],
      ]);
      expect(report.launches[2]!.graph).toEqual({ graph: '0x7a00', node: '0x7b02', nodeIndex: 1, graphLaunch: 0 });
    }
  }, 240_000);

  it.skipIf(!fakeRunsGraphs)('graph: the graph launch replayed as one CUDA graph in every pass, restored between them; every launch reproduced', async () => {
    const capture = graphCapture('graph', 0x3e2000000000);
    const { code, stdout, stderr } = await replay(capture, ['--graph-profiling', 'graph']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(jsonSchemaProblem(captureReplayResultJsonSchema, report)).toBeNull();
    expect(report).toMatchObject({ graphProfiling: 'graph', reproduced: 4, mismatched: [], failed: [] });
    expect(report.ranges).toHaveLength(1);
    expect(report.ranges[0]).toMatchObject({ launches: [1, 2, 3], graph: { graph: '0x7a00', graphLaunch: 0 }, replayed: true, passes: 3, verification: 'verified' });
    expect(report.ranges[0]!.bytesBefore).toBeGreaterThan(0);
  }, 240_000);

  it.skipIf(!driveBuilt)('graph: a program\'s captured graph launches (two graphs, built node by node and by stream capture, each launched three times) each replayed as one graph; every node reproduced', async () => {
    const directory = join(root, 'driven');
    const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, ...rest } = process.env;
    const driven = spawnSync(driveProgram, ['--drive-graph-injection', captureLibraryPath(), fakeCupti, fakeCuda], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...rest, KREPLAY_CAPTURE_DIR: directory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CAPTURE_EVERY_LAUNCH: '1' },
    });
    expect(driven.status, `${driven.stdout}${driven.stderr}`).toBe(0);
    const capture = await readCaptureFolder(directory);
    const nodes = capture.launches.filter((launch) => launch.graph !== null);
    const graphLaunches = new Set(nodes.map((launch) => `${launch.graph!.graph} ${launch.graph!.graphLaunch}`));
    const { code, stdout, stderr } = await replay(directory, ['--graph-profiling', 'graph']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(jsonSchemaProblem(captureReplayResultJsonSchema, report)).toBeNull();
    expect(report).toMatchObject({ graphProfiling: 'graph', reproduced: capture.launches.length, mismatched: [], failed: [] });
    const graphRanges = report.ranges.filter((range) => range.graph !== undefined);
    expect(graphRanges).toHaveLength(graphLaunches.size);
    expect(graphRanges.every((range) => range.replayed && range.verification === 'verified')).toBe(true);
    expect(graphRanges.flatMap((range) => range.launches).sort((a, b) => a - b)).toEqual(nodes.map((launch) => launch.sequence));
  }, 240_000);
});
