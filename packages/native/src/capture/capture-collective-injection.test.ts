import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from './capture-folder.js';
import { captureLibraryPath } from './capture-library-path.js';

// Kernels whose code came from a collective library (NCCL's libnccl*, RCCL's librccl*), or launched by
// such a library's code, whatever their names, are counted `collective` and never captured:
// kreplay-capture-test --drive-collective-injection (src/capture/test/drive-collective-injection.cpp)
// loads a module through cuModuleLoadData from an image lying in a shared object's memory, over
// fake-cupti, and launches its kernel `scale` once; --drive-collective-caller loads it from the
// program's memory and launches `scale` through the fake cuLaunchKernel from the shared object's code,
// then from the program's. The same shared object (build/tests/collective-library/libnccl-kreplay-fixture.so)
// under another file name is an ordinary library, whose kernel is captured.
const build = (path: string) => fileURLToPath(new URL(`../../build/${path}`, import.meta.url));
const program = build('tests/kreplay-capture-test');
const fakeCupti = build('tests/fake-cupti/libcupti.so');
const ncclStandIn = build('tests/collective-library/libnccl-kreplay-fixture.so');
const built = [program, fakeCupti, ncclStandIn, build('Release/libkreplay-capture.so')].every((path) => existsSync(path));
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-collective-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function drive(name: string, imageLibrary: string, mode = '--drive-collective-injection') {
  const directory = join(root, name);
  const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, KREPLAY_CAPTURE_OWNER_PID: _owner, ...rest } = process.env;
  const result = spawnSync(program, [mode, captureLibraryPath(), fakeCupti, imageLibrary], {
    encoding: 'utf8',
    env: { ...rest, KREPLAY_CAPTURE_DIR: directory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCupti, KREPLAY_CAPTURE_EVERY_LAUNCH: '1' },
  });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  expect((JSON.parse(result.stdout) as { initialized: number }).initialized).toBe(1);
  return { directory, stderr: result.stderr };
}

describe.skipIf(!built)('kernels loaded from a collective library (fake libcupti)', () => {
  it('counts a launch of a kernel whose module image lies in libnccl-kreplay-fixture.so as collective, records nothing, and says why', async () => {
    const { directory, stderr } = drive('nccl', ncclStandIn);
    const capture = await readCaptureFolder(directory);
    expect(capture.manifest.complete).toBe(true);
    expect(capture.manifest.notCaptured.collective).toBe(1);
    expect(capture.launches).toEqual([]);
    expect(stderr).toContain('not captured (collective): scale: its code was loaded from libnccl-kreplay-fixture.so, a collective library');
  });

  it('captures the same kernel when the library holding its image is not named as a collective library', async () => {
    const renamed = join(root, 'libkreplay-fixture.so');
    copyFileSync(ncclStandIn, renamed);
    const { directory, stderr } = drive('plain', renamed);
    const capture = await readCaptureFolder(directory);
    expect(capture.manifest.notCaptured.collective ?? 0).toBe(0);
    expect(capture.launches.map((launch) => launch.function)).toEqual(['scale']);
    expect(stderr).not.toContain('a collective library');
  });
});

describe.skipIf(!built)('kernels launched by a collective library\'s code (fake libcupti)', () => {
  it('counts the launch made from libnccl-kreplay-fixture.so\'s code as collective and records the same kernel launched by the program', async () => {
    const { directory, stderr } = drive('nccl-caller', ncclStandIn, '--drive-collective-caller');
    const capture = await readCaptureFolder(directory);
    expect(capture.manifest.complete).toBe(true);
    expect(capture.manifest.notCaptured.collective).toBe(1);
    expect(capture.launches.map((launch) => launch.function)).toEqual(['scale']);
    expect(stderr).toContain("not captured (collective): scale: launched from libnccl-kreplay-fixture.so's code, a collective library");
  });

  it('records both launches when the library that made one is not named as a collective library', async () => {
    const renamed = join(root, 'libkreplay-caller-fixture.so');
    copyFileSync(ncclStandIn, renamed);
    const { directory, stderr } = drive('plain-caller', renamed, '--drive-collective-caller');
    const capture = await readCaptureFolder(directory);
    expect(capture.manifest.notCaptured.collective ?? 0).toBe(0);
    expect(capture.launches.map((launch) => launch.function)).toEqual(['scale', 'scale']);
    expect(stderr).not.toContain('a collective library');
  });
});
