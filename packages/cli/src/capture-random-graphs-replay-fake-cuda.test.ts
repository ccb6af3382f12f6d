import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureReplayResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { captureLibraryPath, readCaptureFolder } from '@kreplay/native';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaptureReplayReport } from './capture-replay-run.js';

// `kreplay replay --capture --verify full` of random CUDA graphs a program launched, end to end over
// native's fake libcuda: native's kreplay-capture-test --drive-random-graphs builds, from a seed, DAGs
// of kernel, memset and copy nodes over overlapping buffers (node by node, or captured from streams)
// and launches each a few times with libkreplay-capture.so injected, every launch captured (native's
// capture-random-graphs.test.ts checks that capture against a plain run). Each captured kernel node
// must reproduce when replayed per node and when each graph launch is replayed as one CUDA graph.
const nativeDirectory = fileURLToPath(new URL('../../native/', import.meta.url));
const built = (path: string) => join(nativeDirectory, 'build', path);
const fakeCuda = built('fake-cuda/libcuda.so.1');
if (!existsSync(fakeCuda)) spawnSync(join(nativeDirectory, 'scripts/build-fake-cuda.sh'), { stdio: 'ignore', timeout: 300_000 });
const driveProgram = built('tests/kreplay-capture-test');
const fakeCupti = built('tests/fake-cupti/libcupti.so');
const fakeRunsGraphs = existsSync(fakeCuda) && readFileSync(fakeCuda).includes('cuGraphInstantiateWithFlags');
const driveBuilt = fakeRunsGraphs && [driveProgram, fakeCupti, built('Release/libkreplay-capture.so')].every((path) => existsSync(path));
const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'kreplay-replay-random-graphs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function replay(capture: string, graphProfiling: 'node' | 'graph'): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CUPTI_LIBRARY_DIR: join(nativeDirectory, 'build/fake-cuda') };
  // A graph launch is replayed as one graph after the first pass: two passes for `graph`.
  const passes = graphProfiling === 'graph' ? '2' : '1';
  const args = ['replay', '--capture', capture, '--driver', 'cuda', '--passes', passes, '--verify', 'full', '--graph-profiling', graphProfiling, '--json'];
  return new Promise((resolve) => {
    execFile(process.execPath, [binPath, ...args], { env, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe.skipIf(!driveBuilt)('kreplay replay --capture of random graphs a program launched, on the fake libcuda', () => {
  it.each([5, 6])('seed %i: every kernel node reproduces, per node and with each graph launch replayed as one graph', async (seed) => {
    const directory = join(root, `seed-${seed}`);
    const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, ...rest } = process.env;
    const driven = spawnSync(driveProgram, ['--drive-random-graphs', captureLibraryPath(), fakeCupti, fakeCuda, String(seed)], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...rest, KREPLAY_CAPTURE_DIR: directory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CAPTURE_EVERY_LAUNCH: '1' },
    });
    expect(driven.status, `${driven.stdout}${driven.stderr}`).toBe(0);
    expect(JSON.parse(driven.stdout)).toMatchObject({ initialized: 1, ok: true });
    const capture = await readCaptureFolder(directory);
    expect(capture.launches.length).toBeGreaterThan(0);
    expect(capture.launches.every((launch) => launch.graph !== null)).toBe(true);
    const graphLaunches = new Set(capture.launches.map((launch) => `${launch.graph!.graph} ${launch.graph!.graphLaunch}`));

    for (const graphProfiling of ['node', 'graph'] as const) {
      const { code, stdout, stderr } = await replay(directory, graphProfiling);
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as CaptureReplayReport;
      expect(jsonSchemaProblem(captureReplayResultJsonSchema, report)).toBeNull();
      expect(report, `--graph-profiling ${graphProfiling}`).toMatchObject({ graphProfiling, reproduced: capture.launches.length, mismatched: [], failed: [] });
      expect(report.launches.every((launch) => launch.outcome === 'reproduced')).toBe(true);
      if (graphProfiling === 'graph') {
        const graphRanges = report.ranges.filter((range) => range.graph !== undefined);
        expect(graphRanges).toHaveLength(graphLaunches.size);
        expect(graphRanges.every((range) => range.replayed && range.verification === 'verified')).toBe(true);
        expect(graphRanges.flatMap((range) => range.launches).sort((a, b) => a - b)).toEqual(capture.launches.map((launch) => launch.sequence));
      }
    }
  }, 240_000);
});
