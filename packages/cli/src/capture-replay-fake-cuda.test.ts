import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaptureWork } from '@kreplay/native';
import { captureFixtureAxpyParameters, captureFixtureBlockSums, captureFixtureBlockSumsParameters, captureFixtureBlockThreads, writeTestCapture, type TestCaptureLaunch } from '@kreplay/native/test';
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

const count = 4096;
const bytes = (values: Float32Array) => new Uint8Array(values.buffer.slice(0));
const initialY = () => Float32Array.from({ length: count }, (_, index) => index * 0.5);
const initialX = () => Float32Array.from({ length: count }, (_, index) => (index % 13) - 6);

/** One axpy launch (a = 3) over y at `base` and x 2 MiB above (in memory of `xKind`): y before and after it, x before it (unchanged by it). */
function axpyLaunch(base: number, y: Float32Array, after: Float32Array, x: Float32Array, xKind: 'device' | 'host-pinned' = 'device'): TestCaptureLaunch {
  return {
    function: 'kreplay_capture_fixture_axpy',
    module: ptx,
    grid: [16, 1, 1],
    block: [256, 1, 1],
    parameters: captureFixtureAxpyParameters(base, base + 2 ** 21, 3, count),
    memory: [
      { base, kind: 'device', before: bytes(y), after: bytes(after) },
      { base: base + 2 ** 21, kind: xKind, before: bytes(x) },
    ],
  };
}

/**
 * A capture of `launches` axpy launches over 4096 floats at `base`, each starting from what the one
 * before left in y; `after` is what the "program" left in y after each.
 */
function axpyCapture(name: string, base: number, after: (y: Float32Array, x: Float32Array) => Float32Array, launches = 1): string {
  const x = initialX();
  const states: Float32Array[] = [initialY()];
  for (let index = 0; index < launches; index += 1) states.push(after(states[index]!, x));
  return writeTestCapture(join(root, name), {
    device: { name: 'Fake CUDA device (CPU)', architecture: 'sm_90' },
    launches: Array.from({ length: launches }, (_, index) => axpyLaunch(base, states[index]!, states[index + 1]!, x)),
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
    expect(report).toMatchObject({ driver: 'cuda', strategy: 'full', passes: 3, verify: 'full', reproduced: 1, mismatched: [], failed: [] });
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

/**
 * A capture of format version 2: axpy launches on one stream over y at `base` and x in pinned host
 * memory 2 MiB above,
 * each launch's memory before it what the one before left, with work between: an upload into x
 * before launch 1, a memset of y's first page before launch 2, and so on (launch i > 0 has x's
 * element i * 7 set to 100 + i, y's first 64 elements zeroed when i is even). `wrong`: launch `wrong`'s
 * memory after is recorded as if the work before it had not been done (the "program" saw other
 * memory than its recorded pages before say).
 */
function axpySequenceCapture(name: string, base: number, launches: number, options: { readonly wrong?: number } = {}): string {
  let y = initialY();
  let x = initialX();
  const records: TestCaptureLaunch[] = [];
  for (let index = 0; index < launches; index += 1) {
    const xBefore = x;
    const work: CaptureWork[] = [];
    if (index > 0) {
      x = x.slice();
      x[index * 7] = 100 + index;
      work.push({ kind: 'upload', stream: '0x0', destination: base + 2 ** 21 + index * 28, bytes: 4 });
      if (index % 2 === 0) {
        y = y.slice();
        y.fill(0, 0, 64);
        work.push({ kind: 'memset', stream: '0x0', address: base, bytes: 256, value: 0, elementBytes: 4 });
      }
    }
    const after = axpy(y, index === options.wrong ? xBefore : x);
    records.push({ ...axpyLaunch(base, y, after, x, 'host-pinned'), workBefore: work });
    y = after;
  }
  return writeTestCapture(join(root, name), { formatVersion: 2, device: { name: 'Fake CUDA device (CPU)', architecture: 'sm_90' }, launches: records });
}

describe.skipIf(!existsSync(fakeCuda))('kreplay replay --capture of captured sequences, in ranges, on the fake libcuda', () => {
  const replay = async (capture: string, extra: readonly string[]) => {
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--passes', '3', '--verify', 'full', '--json', ...extra]);
    return { code, stderr, report: code === 2 ? undefined : (JSON.parse(stdout) as CaptureReplayReport) };
  };
  const rangesOf = (report: CaptureReplayReport) => report.ranges.map((range) => range.launches);

  it('--range auto (the default on version 2) replays the whole sequence as one range, the work between launches copied in; every launch reproduced', async () => {
    const capture = axpySequenceCapture('sequence-auto', 0x3f5000000000, 4);
    for (const extra of [[], ['--range', 'auto']]) {
      const { code, stderr, report } = await replay(capture, extra);
      expect(code, stderr).toBe(0);
      expect(report).toMatchObject({ range: 'auto', rangeLength: 1000, reproduced: 4, mismatched: [], failed: [] });
      expect(rangesOf(report!)).toEqual([[0, 1, 2, 3]]);
      expect(report!.ranges[0]).toMatchObject({ first: 0, replayed: true, passes: 3, verification: 'verified' });
      // x's page before launches 1, 2 and 3, y's before 2.
      expect(report!.ranges[0]!.bytesBefore).toBe(4 * 16384);
      expect(report!.launches.map((launch) => [launch.sequence, launch.range, launch.outcome, launch.postLaunch?.reproduced])).toEqual([
        [0, 0, 'reproduced', true],
        [1, 0, 'reproduced', true],
        [2, 0, 'reproduced', true],
        [3, 0, 'reproduced', true],
      ]);
    }
  }, 240_000);

  it('--range 2 cuts the sequence into ranges of two; --range 1 replays each launch alone, from its own memory', async () => {
    const capture = axpySequenceCapture('sequence-cut', 0x3f6000000000, 3);
    const two = await replay(capture, ['--range', '2', '--strategy', 'write-set']);
    expect(two.code, two.stderr).toBe(0);
    expect(two.report).toMatchObject({ range: 2, reproduced: 3 });
    expect(rangesOf(two.report!)).toEqual([[0, 1]]);
    expect(two.report!.launches.map((launch) => [launch.range, launch.outcome])).toEqual([
      [0, 'reproduced'],
      [0, 'reproduced'],
      [null, 'reproduced'],
    ]);
    const one = await replay(capture, ['--range', '1']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.report).toMatchObject({ range: 1, ranges: [], reproduced: 3 });
    expect(one.report!.launches.map((launch) => [launch.range, launch.outcome, launch.passes])).toEqual([
      [null, 'reproduced', 3],
      [null, 'reproduced', 3],
      [null, 'reproduced', 3],
    ]);
  }, 240_000);

  it('launches of another stream form a sequence of their own; a selection that cuts a sequence starts a range from the first selected launch\'s memory', async () => {
    const capture = axpySequenceCapture('two-streams', 0x3f7000000000, 4);
    // Launch 2 on a stream of its own; launch 3 follows launch 1 (what launch 2 wrote between them is copied in before it).
    const edit = (sequence: number, fields: Record<string, unknown>) => {
      const record = join(capture, 'launches', `0000000${sequence}.json`);
      writeFileSync(record, JSON.stringify({ ...JSON.parse(readFileSync(record, 'utf8')), ...fields }));
    };
    edit(2, { stream: '0x9', follows: null, sequenceBreak: 'other-stream' });
    edit(3, { follows: 1 });
    const streams = await replay(capture, []);
    expect(streams.code, streams.stderr).toBe(0);
    expect(rangesOf(streams.report!)).toEqual([[0, 1, 3]]);
    expect(streams.report!.launches.map((launch) => [launch.range, launch.outcome])).toEqual([
      [0, 'reproduced'],
      [0, 'reproduced'],
      [null, 'reproduced'],
      [0, 'reproduced'],
    ]);
    const cut = axpySequenceCapture('cut', 0x3f8000000000, 4);
    const selected = await replay(cut, ['--launch-skip', '1']);
    expect(selected.code, selected.stderr).toBe(0);
    expect(rangesOf(selected.report!)).toEqual([[1, 2, 3]]);
    expect(selected.report!.notes).toEqual(['launch 1 follows launch 0, which is not among the launches (damaged, absent or not selected): it starts a sequence of its own, from its own memory']);
    expect(selected.report).toMatchObject({ reproduced: 3, mismatched: [] });
  }, 240_000);

  it('names the launch whose work before was recorded wrong as the mismatch, the others reproduced, and exits 1', async () => {
    const capture = axpySequenceCapture('wrong-between', 0x3f9000000000, 3, { wrong: 1 });
    const { code, stdout, stderr } = await kreplay(['replay', '--capture', capture, '--driver', 'cuda', '--passes', '2', '--verify', 'full']);
    expect(code, stderr).toBe(1);
    expect(stdout).toMatch(/ {2}range 0: launches 0-2 \(3\): 2 passes, .* restored, .* copied before launches, .* ms per launch, verification verified\n/);
    expect(stdout).toMatch(/ {2}reproduced 0 kreplay_capture_fixture_axpy: in range 0, verification verified; memory after = the program's/);
    expect(stdout).toMatch(/ {2}mismatch {3}1 kreplay_capture_fixture_axpy: in range 0, verification verified; memory after differs from the program's in 1 of 2 pages/);
    expect(stdout).toMatch(/ {2}reproduced 2 kreplay_capture_fixture_axpy: in range 0/);
    expect(stderr).toMatch(/1 of 3 captured launches did not reproduce the program: 1 kreplay_capture_fixture_axpy \(mismatch\)/);
  }, 240_000);
});
