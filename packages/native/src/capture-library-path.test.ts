import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureLibraryCandidates, captureLibraryPath, findCaptureLibrary, type CaptureLibrarySearch } from './capture-library-path.js';
import { KreplayError } from './errors/kreplay-error.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-library-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const running = { platform: 'linux', arch: 'x64', libc: 'glibc', glibcVersion: '2.36', napiVersion: 9 } as const;
const search = (environment: Record<string, string> = {}): CaptureLibrarySearch => ({
  packageRoot: join(root, 'package'),
  moduleDirectory: join(root, 'bundle'),
  running,
  environment,
});

describe('captureLibraryPath', () => {
  it('searches the source build, the prebuild package, then beside the bundle; KREPLAY_CAPTURE_LIBRARY alone when set', () => {
    expect(captureLibraryCandidates(search())).toEqual([
      { source: 'the source build', path: join(root, 'package', 'build', 'Release', 'libkreplay-capture.so') },
      { source: 'a prebuild', path: '@kreplay/native-linux-x64-gnu', absent: expect.stringContaining('is not installed') },
      { source: 'next to the bundle', path: join(root, 'bundle', 'libkreplay-capture.so') },
    ]);
    expect(captureLibraryCandidates(search({ KREPLAY_CAPTURE_LIBRARY: '/opt/x.so' }))).toEqual([{ source: 'KREPLAY_CAPTURE_LIBRARY', path: '/opt/x.so' }]);
  });

  it('returns the first that exists', () => {
    mkdirSync(join(root, 'bundle'), { recursive: true });
    writeFileSync(join(root, 'bundle', 'libkreplay-capture.so'), '');
    expect(findCaptureLibrary(search())).toBe(join(root, 'bundle', 'libkreplay-capture.so'));
    const prebuildPackage = join(root, 'package', 'node_modules', '@kreplay', 'native-linux-x64-gnu');
    mkdirSync(prebuildPackage, { recursive: true });
    writeFileSync(join(prebuildPackage, 'package.json'), '{}');
    writeFileSync(join(prebuildPackage, 'libkreplay-capture.so'), '');
    expect(findCaptureLibrary(search())).toBe(join(prebuildPackage, 'libkreplay-capture.so'));
  });

  it('a missing library is a KreplayError naming every place and `npm rebuild @kreplay/native`', () => {
    const missing = () => findCaptureLibrary(search({ KREPLAY_CAPTURE_LIBRARY: join(root, 'nowhere.so') }));
    expect(missing).toThrow(KreplayError);
    expect(missing).toThrow(/\[native\] \[capture\] the capture library libkreplay-capture\.so was not found; searched: KREPLAY_CAPTURE_LIBRARY: .*nowhere\.so\. .*npm rebuild @kreplay\/native/);
  });
});

// The library the build made: it loads with dlopen, exports InitializeInjection, and without what it
// needs says why on stderr and returns 0 (the program runs on, uncaptured).
const program = fileURLToPath(new URL('../build/tests/kreplay-capture-test', import.meta.url));
const built = existsSync(program) && existsSync(fileURLToPath(new URL('../build/Release/libkreplay-capture.so', import.meta.url)));

describe.skipIf(!built)('libkreplay-capture.so as built', () => {
  const inject = (environment: Record<string, string | undefined>) => {
    const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_LIBRARY: _library, ...rest } = process.env;
    return spawnSync(program, ['--inject', captureLibraryPath()], { encoding: 'utf8', env: { ...rest, ...environment } as NodeJS.ProcessEnv });
  };

  it('is what captureLibraryPath finds in this repository', () => {
    expect(captureLibraryPath()).toBe(fileURLToPath(new URL('../build/Release/libkreplay-capture.so', import.meta.url)));
  });

  it('loads with dlopen and exports InitializeInjection, which without KREPLAY_CAPTURE_DIR says so and returns 0', () => {
    const result = inject({});
    expect(result.stdout).toContain('InitializeInjection returned 0');
    expect(result.stderr).toContain('[kreplay capture] KREPLAY_CAPTURE_DIR is not set');
  });

  it('without CUPTI it names where it looked and captures nothing, writing no folder', () => {
    const empty = mkdtempSync(join(root, 'no-cupti-'));
    const folder = join(root, 'capture-no-cupti');
    const result = inject({ KREPLAY_CAPTURE_DIR: folder, KREPLAY_CUPTI_LIBRARY_DIR: empty });
    expect(result.stdout).toContain('InitializeInjection returned 0');
    expect(result.stderr).toMatch(/\[kreplay capture\] libcupti\.so was not found.*nothing is captured/);
    expect(existsSync(folder)).toBe(false);
  });

  it('a bad selection variable is named with its value', () => {
    const result = inject({ KREPLAY_CAPTURE_DIR: join(root, 'bad'), KREPLAY_CAPTURE_LAUNCH_SKIP: 'ten' });
    expect(result.stdout).toContain('InitializeInjection returned 0');
    expect(result.stderr).toContain('[kreplay capture] KREPLAY_CAPTURE_LAUNCH_SKIP=ten is not a whole number >= 0');
  });

  const cupti = ['/usr/local/cuda/extras/CUPTI/lib64', '/usr/local/cuda/lib64'].find((folder) => existsSync(join(folder, 'libcupti.so')));
  it.skipIf(!cupti)('with CUPTI but no libcuda it says it could not open libcuda', () => {
    const folder = join(root, 'capture-no-cuda');
    const result = inject({ KREPLAY_CAPTURE_DIR: folder, KREPLAY_CUPTI_LIBRARY_DIR: cupti, KREPLAY_CUDA_LIBRARY: join(root, 'no-libcuda.so.1') });
    expect(result.stdout).toContain('InitializeInjection returned 0');
    expect(result.stderr).toContain('[kreplay capture] could not open libcuda');
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  });
});
