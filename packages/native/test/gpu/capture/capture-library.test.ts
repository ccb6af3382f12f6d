/**
 * libkreplay-capture.so in a real CUDA program (capture-fixture-program.cu, built here with nvcc):
 * CUDA_INJECTION64_PATH loads it, it captures the axpy fixture through the runtime API, a kernel
 * taking a struct by value that reads a __device__ global, and axpy through cuLaunchKernel with
 * `extra`; readCaptureFolder reads the folder. Skips without a CUDA device (and on the fake libcuda,
 * which has no CUPTI injection) or without nvcc.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from '../../../src/capture/nvcc.js';
import { captureBlobId, captureLibraryPath, pageHash, readCaptureFolder, type CaptureLaunch } from '../../../src/index.js';
import { probeCudaForTests } from '../cuda-availability.js';

const cuda = await probeCudaForTests();
const found = findNvcc();
const skip = !cuda.available ? cuda.reason : cuda.fake ? 'the fake libcuda has no CUPTI injection' : 'missing' in found ? found.missing : '';
const pageBytes = 65536;
const affineName = '_Z30kreplay_capture_fixture_affine6Affine';

/** A fixture source in the repository, or beside the bundled test (scripts/bundle-gpu-tests.mjs copies them). */
function fixture(name: string, inRepository: string): string {
  const candidates = [new URL(inRepository, import.meta.url), new URL(`./${name}`, import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}

function floats(count: number, value: (index: number) => number): Uint8Array {
  const array = new Float32Array(count);
  for (let i = 0; i < count; i += 1) array[i] = value(i);
  return new Uint8Array(array.buffer);
}
function pages(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += pageBytes) out.push(bytes.subarray(at, Math.min(bytes.length, at + pageBytes)));
  return out;
}
function view(launch: CaptureLaunch): DataView {
  return new DataView(launch.parameterBuffer.buffer, launch.parameterBuffer.byteOffset, launch.parameterBuffer.byteLength);
}

describe.skipIf(skip !== '')(`the capture library in a CUDA program${skip ? ` (${skip})` : ''}`, () => {
  let folder = '';
  let program = '';
  const run = (name: string, environment: Record<string, string>) => {
    const directory = join(folder, name);
    const result = spawnSync(program, [], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, CUDA_INJECTION64_PATH: captureLibraryPath(), KREPLAY_CAPTURE_DIR: directory, KREPLAY_CAPTURE_COMMAND: JSON.stringify([program]), ...environment },
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('ok');
    expect(result.stderr).toContain('[kreplay capture] capturing into');
    const [, y, x, out, n] = /y (0x[0-9a-f]+) x (0x[0-9a-f]+) out (0x[0-9a-f]+) n (\d+)/.exec(result.stdout) ?? [];
    return { directory, y: Number(y), x: Number(x), out: Number(out), n: Number(n), stderr: result.stderr };
  };

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'kreplay-capture-gpu-'));
    program = join(folder, 'capture-fixture-program');
    const source = fixture('capture-fixture-program.cu', './capture-fixture-program.cu');
    const axpy = fixture('axpy.cu', '../../capture-fixtures/axpy.cu');
    nvcc((found as { path: string }).path, ['-arch=native', `-I${dirname(axpy)}`, '-o', program, source]);
  }, 180_000);
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('every launch: parameters from kernelParams and from extra, memory before and hashes after, the global', async () => {
    const { directory, y, x, out, n } = run('every', { KREPLAY_CAPTURE_EVERY_LAUNCH: '1' });
    const capture = await readCaptureFolder(directory);
    expect(capture.damaged).toEqual([]);
    expect(capture.manifest.complete).toBe(true);
    expect(capture.manifest.device.architecture).toMatch(/^sm_\d+$/);
    expect(capture.manifest.command).toEqual([program]);
    expect(capture.launches.map((launch) => launch.function)).toEqual(['kreplay_capture_fixture_axpy', 'kreplay_capture_fixture_axpy', affineName, 'kreplay_capture_fixture_axpy']);
    const [first, second, affine, extra] = capture.launches as CaptureLaunch[];

    const axpySlots = [{ index: 0, offset: 0, size: 8 }, { index: 1, offset: 8, size: 8 }, { index: 2, offset: 16, size: 4 }, { index: 3, offset: 20, size: 4 }];
    for (const [launch, a] of [[first!, 2], [second!, 3], [extra!, 4]] as const) {
      expect(launch.parameters).toEqual(axpySlots);
      expect(view(launch).getBigUint64(0, true)).toBe(BigInt(y));
      expect(view(launch).getBigUint64(8, true)).toBe(BigInt(x));
      expect(view(launch).getFloat32(16, true)).toBe(a);
      expect(view(launch).getUint32(20, true)).toBe(n);
      expect(launch.shape).toMatchObject({ grid: [Math.ceil(n / 256), 1, 1], block: [256, 1, 1], dynamicSharedBytes: 0 });
    }
    expect(affine!.parameters).toEqual([{ index: 0, offset: 0, size: 24 }]);
    expect(view(affine!).getBigUint64(0, true)).toBe(BigInt(out));
    expect(view(affine!).getFloat32(8, true)).toBe(0.25);
    expect(view(affine!).getFloat64(16, true)).toBe(1.5);

    const range = (launch: CaptureLaunch, base: number) => launch.memory.find((candidate) => candidate.base === base)!;
    const xBytes = floats(n, (i) => i);
    expect(range(first!, x)).toMatchObject({ kind: 'device', bytes: 4 * n });
    expect(range(first!, x).pagesBefore).toEqual(pages(xBytes).map(captureBlobId));
    expect(range(first!, y).pagesBefore).toEqual(pages(new Uint8Array(4 * n)).map(captureBlobId));
    expect(range(first!, y).pageHashesAfter).toEqual(pages(floats(n, (i) => 2 * i)).map(pageHash));
    expect(range(second!, y).pagesBefore).toEqual(pages(floats(n, (i) => 2 * i)).map(captureBlobId));
    expect(range(second!, y).pageHashesAfter).toEqual(pages(floats(n, (i) => 5 * i)).map(pageHash));
    expect(range(extra!, y).pageHashesAfter).toEqual(pages(floats(n, (i) => 9 * i)).map(pageHash));
    expect(range(affine!, out).pageHashesAfter).toEqual(pages(floats(n, (i) => Math.fround(Math.fround(0.25 * i) + 1.5) + 0.5)).map(pageHash));
    const global = affine!.memory.find((candidate) => candidate.label === 'kreplay_capture_fixture_offset');
    expect(global).toMatchObject({ kind: 'module-global', bytes: 4, pagesBefore: [captureBlobId(floats(1, () => 0.5))] });
    expect(capture.launches.every((launch) => launch.module === first!.module)).toBe(true);
  });

  it('by default the first launch of each kernel; regex: on the demangled name selects by it', async () => {
    const byDefault = await readCaptureFolder(run('default', {}).directory);
    expect(byDefault.launches.map((launch) => launch.function)).toEqual(['kreplay_capture_fixture_axpy', affineName]);
    const named = await readCaptureFolder(run('named', { KREPLAY_CAPTURE_KERNEL_NAME: 'regex:\\(Affine\\)$', KREPLAY_CAPTURE_KERNEL_NAME_BASE: 'demangled' }).directory);
    expect(named.launches.map((launch) => launch.function)).toEqual([affineName]);
    const skipped = await readCaptureFolder(run('skipped', { KREPLAY_CAPTURE_KERNEL_NAME: 'regex:axpy', KREPLAY_CAPTURE_LAUNCH_SKIP: '1', KREPLAY_CAPTURE_LAUNCH_COUNT: '1' }).directory);
    expect(skipped.launches).toHaveLength(1);
    expect(view(skipped.launches[0]!).getFloat32(16, true)).toBe(3);
  });
});
