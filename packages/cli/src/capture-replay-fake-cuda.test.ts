import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureFixtureAxpyParameters, captureFixtureBlockSums, captureFixtureBlockSumsParameters, captureFixtureBlockThreads, writeTestCapture } from '@kreplay/native/test';
import { captureReplayResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaptureReplayReport } from './capture-replay-run.js';

// `kreplay replay --capture` end to end, in a spawned kreplay over native's fake libcuda (a CPU
// stand-in for the NVIDIA driver; built here with native's scripts/build-fake-cuda.sh when a C++
// compiler is there and `pnpm --filter @kreplay/native run test:fake-cuda` has not built it yet):
// the capture's ranges reserved before the driver starts, mapped at their captured bases, the
// fixture kernel replayed through the engine and its memory after compared with the program's.
const nativeDirectory = fileURLToPath(new URL('../../native/', import.meta.url));
const fakeCuda = join(nativeDirectory, 'build/fake-cuda/libcuda.so.1');
if (!existsSync(fakeCuda)) spawnSync(join(nativeDirectory, 'scripts/build-fake-cuda.sh'), { stdio: 'ignore', timeout: 300_000 });
const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ptx = readFileSync(join(nativeDirectory, 'test/gpu/kernels/capture-fixture-axpy.ptx'));
const blockSumsPtx = readFileSync(join(nativeDirectory, 'test/gpu/kernels/capture-fixture-block-sums.ptx'));
const root = mkdtempSync(join(tmpdir(), 'kreplay-replay-fake-cuda-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A capture of `launches` axpy launches over 4096 floats at `base`, each starting from what the one
 * before left in y; `after` is what the "program" left in y after each.
 */
function axpyCapture(name: string, base: number, after: (y: Float32Array, x: Float32Array) => Float32Array, launches = 1): string {
  const count = 4096;
  const y = Float32Array.from({ length: count }, (_, index) => index * 0.5);
  const x = Float32Array.from({ length: count }, (_, index) => (index % 13) - 6);
  const bytes = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));
  const states: Float32Array[] = [y];
  for (let index = 0; index < launches; index += 1) states.push(after(states[index]!, x));
  return writeTestCapture(join(root, name), {
    device: { name: 'Fake CUDA device (CPU)', architecture: 'sm_90' },
    launches: Array.from({ length: launches }, (_, index) => ({
      function: 'kreplay_capture_fixture_axpy',
      module: ptx,
      grid: [16, 1, 1] as const,
      block: [256, 1, 1] as const,
      parameters: captureFixtureAxpyParameters(base, base + 2 ** 21, 3, count),
      memory: [
        { base, kind: 'device' as const, before: bytes(states[index]!), after: bytes(states[index + 1]!) },
        { base: base + 2 ** 21, kind: 'device' as const, before: bytes(x) },
      ],
    })),
  });
}

/**
 * A capture of 3 launches of the block-sums fixture: a and b device memory at `base` and 2 MiB
 * above, the sums in pinned host memory 4 MiB above (inside the 32 MiB window of the device memory,
 * where CUDA puts a program's cudaMallocHost memory). The program wrote new values into a before
 * each launch; each launch starts from the sums the one before stored.
 */
function blockSumsCapture(name: string, base: number): string {
  const count = 4096;
  const b = Float32Array.from({ length: count }, (_, index) => ((index * 7) % 23) * 0.25);
  const inputs = [0, 1, 2].map((launch) => Float32Array.from({ length: count }, (_, index) => ((index + launch * 5) % 17) - 8));
  const bytes = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));
  let sums: Float32Array = new Float32Array(count / captureFixtureBlockThreads);
  const sumsBase = base + 4 * 2 ** 20;
  return writeTestCapture(join(root, name), {
    device: { name: 'Fake CUDA device (CPU)', architecture: 'sm_90' },
    launches: inputs.map((a) => {
      const before = sums;
      sums = captureFixtureBlockSums(a, b);
      return {
        function: 'kreplay_capture_fixture_block_sums',
        module: blockSumsPtx,
        grid: [count / captureFixtureBlockThreads, 1, 1] as const,
        block: [captureFixtureBlockThreads, 1, 1] as const,
        parameters: captureFixtureBlockSumsParameters(base, base + 2 ** 21, sumsBase, count),
        memory: [
          { base, kind: 'device' as const, before: bytes(a) },
          { base: base + 2 ** 21, kind: 'device' as const, before: bytes(b) },
          { base: sumsBase, kind: 'host-pinned' as const, before: bytes(before), after: bytes(sums) },
        ],
      };
    }),
  });
}

const axpy = (y: Float32Array, x: Float32Array) => y.map((value, index) => Math.fround(Math.fround(3 * x[index]!) + value));

function kreplay(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, KREPLAY_CUDA_LIBRARY: fakeCuda, KREPLAY_CUPTI_LIBRARY_DIR: join(nativeDirectory, 'build/fake-cuda') };
  return new Promise((resolve) => {
    execFile(process.execPath, [binPath, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe.skipIf(!existsSync(fakeCuda))('kreplay replay --capture on the fake libcuda', () => {
  it('replays each launch at its captured addresses and finds it reproduces the program (exit 0)', async () => {
    const capture = axpyCapture('reproduces', 0x3f1000000000, axpy);
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--strategy', 'full', '--passes', '3', '--verify', 'full', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(report).toMatchObject({ schema: 'urn:kreplay:schema:capture-replay-result:1', schemaVersion: 1, driver: 'cuda', strategy: 'full', passes: 3, verify: 'full', reproduced: 1, mismatched: [], failed: [] });
    expect(jsonSchemaProblem(captureReplayResultJsonSchema, report)).toBeNull();
    expect(report.launches[0]).toMatchObject({ sequence: 0, function: 'kreplay_capture_fixture_axpy', outcome: 'reproduced', replayed: true, passes: 3, verification: 'verified' });
    expect(report.launches[0]!.postLaunch).toMatchObject({ reproduced: true, pagesMismatched: 0 });
  }, 120_000);

  it('replays launches that follow one another with the default strategy (dirty-pages) and its mirrors', async () => {
    const capture = axpyCapture('sequence', 0x3f3000000000, axpy, 3);
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--passes', '4', '--verify', 'full', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(report).toMatchObject({ strategy: 'dirty-pages', reproduced: 3, mismatched: [], failed: [] });
    expect(report.launches.map((launch) => [launch.outcome, launch.verification])).toEqual([
      ['reproduced', 'verified'],
      ['reproduced', 'verified'],
      ['reproduced', 'verified'],
    ]);
  }, 120_000);

  it('replays only the launches --kernel-name, --launch-skip and --launch-count select, each from its own memory', async () => {
    const capture = axpyCapture('selected', 0x3f4000000000, axpy, 3);
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--verify', 'full', '--kernel-name', 'axpy$', '--launch-skip', '1', '--launch-count', '1', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(report.launches.map((launch) => [launch.sequence, launch.outcome])).toEqual([[1, 'reproduced']]);
  }, 120_000);

  it.each(['full', 'write-set', 'dirty-pages'])('verifies a kernel that writes pinned host memory in a device window (%s): every pass starts from the sums it did', async (strategy) => {
    const capture = blockSumsCapture(`host-sums-${strategy}`, 0x3f5000000000);
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--strategy', strategy, '--passes', '3', '--verify', 'full', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CaptureReplayReport;
    expect(report).toMatchObject({ strategy, reproduced: 3, mismatched: [], failed: [], relocations: [] });
    for (const launch of report.launches) {
      expect(launch).toMatchObject({ outcome: 'reproduced', replayed: true, passes: 3, verification: 'verified', nondeterministic: false });
      expect(launch.postLaunch).toMatchObject({ reproduced: true, pagesMismatched: 0 });
    }
  }, 120_000);

  it('names a launch whose memory after is not the program\'s, and exits 1', async () => {
    // The "program" left y untouched: the replayed kernel's result cannot match it.
    const capture = axpyCapture('mismatches', 0x3f2000000000, (y) => y);
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--verify', 'full']);
    expect(code, stderr).toBe(1);
    expect(stdout).toMatch(/ {2}mismatch {3}0 kreplay_capture_fixture_axpy: .*memory after differs from the program's in 1 of 2 pages/);
    expect(stdout).toContain('differs: device at 0x3f2000000000 (16384 bytes), pages 0');
    expect(stderr).toMatch(/kreplay: \[cli\] \[replay\] 1 of 1 captured launches did not reproduce the program: 0 kreplay_capture_fixture_axpy \(mismatch\)/);
  }, 120_000);
});
