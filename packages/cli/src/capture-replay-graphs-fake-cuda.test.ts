import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureLibraryPath, readCaptureFolder } from '@kreplay/native';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaptureReplayReport } from './capture-replay-run.js';

// Kernel nodes of CUDA graphs, captured and replayed without a GPU: native's kreplay-capture-test
// --drive-graph-injection runs a program over the fake libcuda (graphs built node by node and by
// stream capture, each launched three times, one with a kernel node's parameters changed in between)
// with the capture library injected; `kreplay replay --capture` then replays every captured node at
// its captured addresses over the fake libcuda and finds each reproduces the program's memory.
const nativeDirectory = fileURLToPath(new URL('../../native/', import.meta.url));
const build = (path: string) => join(nativeDirectory, 'build', path);
const fakeCuda = build('fake-cuda/libcuda.so.1');
if (!existsSync(fakeCuda)) spawnSync(join(nativeDirectory, 'scripts/build-fake-cuda.sh'), { stdio: 'ignore', timeout: 300_000 });
const program = build('tests/kreplay-capture-test');
const fakeCupti = build('tests/fake-cupti/libcupti.so');
const built = [fakeCuda, program, fakeCupti, build('Release/libkreplay-capture.so')].every((path) => existsSync(path));
const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'kreplay-replay-graphs-fake-cuda-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function kreplay(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CUPTI_LIBRARY_DIR: join(nativeDirectory, 'build/fake-cuda') };
  return new Promise((resolve) => {
    execFile(process.execPath, [binPath, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe.skipIf(!built)('kreplay replay --capture of the kernel nodes of graph launches, on the fake libcuda', () => {
  it('replays every captured node at its captured addresses and finds it reproduces the program (exit 0)', async () => {
    const directory = join(root, 'capture');
    const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, ...rest } = process.env;
    const driven = spawnSync(program, ['--drive-graph-injection', captureLibraryPath(), fakeCupti, fakeCuda], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...rest, KREPLAY_CAPTURE_DIR: directory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CAPTURE_EVERY_LAUNCH: '1' },
    });
    expect(driven.status, `${driven.stdout}${driven.stderr}`).toBe(0);
    expect(JSON.parse(driven.stdout)).toMatchObject({ ok: true, unchanged: true });
    const capture = await readCaptureFolder(directory);
    // The driver's graphs (built node by node and by stream capture, changed through exec setters and
    // updates, with copy and memory nodes) launched several times: at least the 12 nodes of its first scenarios.
    const nodes = capture.launches.filter((launch) => launch.graph !== null).length;
    expect(nodes).toBeGreaterThanOrEqual(12);

    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture.directory, '--driver', 'cuda', '--passes', '3', '--verify', 'full', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(report).toMatchObject({ reproduced: capture.launches.length, mismatched: [], failed: [] });
    expect(report.launches.map((launch) => launch.outcome)).toEqual(capture.launches.map(() => 'reproduced'));
  }, 240_000);
});
