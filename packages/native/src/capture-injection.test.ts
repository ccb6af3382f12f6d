import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureBlobId } from './capture-blob.js';
import { readCaptureFolder } from './capture-folder.js';
import { captureLibraryPath } from './capture-library-path.js';
import { pageHash } from './page-hash.js';

// libkreplay-capture.so's CUPTI glue end to end without a GPU: kreplay-capture-test --drive-injection
// (src/capture/test/drive-injection.cpp) loads it, calls InitializeInjection, and raises callbacks
// through build/tests/fake-cupti/libcupti.so (a libcupti and libcuda stand-in over host memory, whose
// cuMemcpy also raises a callback for the library's own call, which must be ignored): a module, an
// allocation, two kernel launches, a graph launch; the process then exits normally.
const build = (path: string) => fileURLToPath(new URL(`../build/${path}`, import.meta.url));
const program = build('tests/kreplay-capture-test');
const fakeCupti = build('tests/fake-cupti/libcupti.so');
const built = existsSync(program) && existsSync(fakeCupti) && existsSync(build('Release/libkreplay-capture.so'));
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-injection-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Driven {
  readonly initialized: number;
  readonly pid: number;
  readonly base: number;
  readonly bytes: number;
  readonly counter: number;
  readonly enabled: number;
  readonly launches: readonly { readonly seen: number; readonly page0Before: number; readonly page0After: number; readonly counter: number }[];
}

function driveEnvironment(directory: string, environment: Record<string, string>): NodeJS.ProcessEnv {
  const { KREPLAY_CAPTURE_DIR: _dir, KREPLAY_CAPTURE_KERNEL_NAME: _name, ...rest } = process.env;
  return { ...rest, KREPLAY_CAPTURE_DIR: directory, KREPLAY_CUPTI_LIBRARY_DIR: join(fakeCupti, '..'), KREPLAY_CUDA_LIBRARY: fakeCupti, ...environment };
}

function drive(name: string, environment: Record<string, string>) {
  const directory = join(root, name);
  const result = spawnSync(program, ['--drive-injection', captureLibraryPath(), fakeCupti], { encoding: 'utf8', env: driveEnvironment(directory, environment) });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return { directory, driven: JSON.parse(result.stdout) as Driven, stderr: result.stderr };
}

/** Like drive, in a process started without waiting, so that several run at once (as a launcher's ranks). */
function driveAlongside(directory: string, environment: Record<string, string>): Promise<{ driven: Driven; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['--drive-injection', captureLibraryPath(), fakeCupti], { env: driveEnvironment(directory, environment) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve({ driven: JSON.parse(stdout) as Driven, stderr }) : reject(new Error(`exit ${code}: ${stdout}${stderr}`))));
  });
}

/** The one sub-capture of a folder one process captured into: processes/<pid>. */
const processFolder = (directory: string, pid: number) => join(directory, 'processes', String(pid));

const fill = (value: number) => new Uint8Array(65536).fill(value);

describe.skipIf(!built)('the capture library through CUPTI callbacks (fake libcupti)', () => {
  it('subscribes, enables its callbacks, captures both launches and counts the graph launch; exit finishes the capture', async () => {
    const { directory, driven, stderr } = drive('every', { KREPLAY_CAPTURE_EVERY_LAUNCH: '1', KREPLAY_CAPTURE_COMMAND: '["train.py","--steps","1"]' });
    expect(driven.initialized).toBe(1);
    expect(driven.enabled).toBe(11);
    expect(stderr).toContain(`[kreplay capture] capturing into ${processFolder(directory, driven.pid)}`);
    // A folder one process captured into reads as that process's capture.
    const capture = await readCaptureFolder(directory);
    expect(capture.directory).toBe(processFolder(directory, driven.pid));
    expect(capture.manifest).toMatchObject({
      complete: true,
      command: ['train.py', '--steps', '1'],
      device: { name: 'Fake CUPTI device', architecture: 'sm_90' },
      process: { pid: driven.pid, parentPid: process.pid },
    });
    expect(capture.manifest.notCaptured['graph-launch']).toBe(1);
    expect(capture.damaged).toEqual([]);
    expect(capture.launches.map((launch) => launch.function)).toEqual(['scale', 'scale']);
    capture.launches.forEach((launch, index) => {
      const seen = driven.launches[index]!;
      expect(launch.shape).toMatchObject({ grid: [2, 1, 1], block: [64, 1, 1] });
      const view = new DataView(launch.parameterBuffer.buffer, launch.parameterBuffer.byteOffset, launch.parameterBuffer.byteLength);
      expect(view.getBigUint64(0, true)).toBe(BigInt(driven.base));
      expect(view.getInt32(8, true)).toBe(index + 1);
      // Only the program's allocation and the module's global: the library's own calls' callbacks are ignored.
      expect(launch.memory.map((range) => [range.base, range.kind, range.label])).toEqual([
        [driven.base, 'device', ''],
        [driven.counter, 'module-global', 'counter'],
      ]);
      const [range] = launch.memory;
      expect(range!.pagesBefore[0]).toBe(captureBlobId(fill(seen.page0Before)));
      expect(range!.pageHashesAfter[0]).toBe(pageHash(fill(seen.page0After)));
    });
    // Page 1 was the same before both launches: the second launch names the same blob.
    expect(capture.launches[1]!.memory[0]!.pagesBefore[1]).toBe(capture.launches[0]!.memory[0]!.pagesBefore[1]);
  });

  it('captures nothing in a process another captured process started (KREPLAY_CAPTURE_OWNER_PID), and says so', () => {
    const { directory, driven, stderr } = drive('child', { KREPLAY_CAPTURE_EVERY_LAUNCH: '1', KREPLAY_CAPTURE_OWNER_PID: '1' });
    expect(driven.initialized).toBe(0);
    expect(stderr).toContain('[kreplay capture] process ');
    expect(stderr).toContain('was started by the captured process 1; its launches are not captured.');
    expect(existsSync(directory)).toBe(false);
  });

  it('by default the first launch of each kernel; a name filter that matches nothing captures nothing', async () => {
    const first = await readCaptureFolder(drive('default', {}).directory);
    expect(first.launches).toHaveLength(1);
    const none = await readCaptureFolder(drive('none', { KREPLAY_CAPTURE_KERNEL_NAME: '^gemm' }).directory);
    expect(none.launches).toHaveLength(0);
    expect(none.manifest.complete).toBe(true);
  });

  it('gives each of several processes capturing into one folder at once a capture of its own (processes/<pid>), none lost or mixed', async () => {
    const directory = join(root, 'ranks');
    const ranks = await Promise.all([0, 1, 2].map(() => driveAlongside(directory, { KREPLAY_CAPTURE_EVERY_LAUNCH: '1' })));
    expect(readdirSync(join(directory, 'processes')).sort()).toEqual(ranks.map(({ driven }) => String(driven.pid)).sort());
    for (const { driven, stderr } of ranks) {
      expect(driven.initialized).toBe(1);
      expect(stderr).toContain(`[kreplay capture] capturing into ${processFolder(directory, driven.pid)}`);
      const capture = await readCaptureFolder(processFolder(directory, driven.pid));
      expect(capture.manifest).toMatchObject({ complete: true, process: { pid: driven.pid } });
      expect(capture.manifest.notCaptured['graph-launch']).toBe(1);
      expect(capture.damaged).toEqual([]);
      expect(capture.incomplete).toEqual([]);
      expect(capture.launches.map((launch) => launch.sequence)).toEqual([0, 1]);
      capture.launches.forEach((launch, index) => {
        // This process's own allocation, and what this process's memory held.
        expect(launch.memory[0]!.base).toBe(driven.base);
        expect(launch.memory[0]!.pagesBefore[0]).toBe(captureBlobId(fill(driven.launches[index]!.page0Before)));
        const view = new DataView(launch.parameterBuffer.buffer, launch.parameterBuffer.byteOffset, launch.parameterBuffer.byteLength);
        expect(view.getBigUint64(0, true)).toBe(BigInt(driven.base));
      });
    }
    // The folder as a whole is no one capture: reading it names the processes' captures instead.
    const error = await readCaptureFolder(directory).then(() => null, (thrown: Error) => thrown);
    expect(error?.name).toBe('CaptureFormatError');
    expect(error?.message).toContain(`${directory} holds the captures of 3 processes`);
    for (const { driven } of ranks) expect(error?.message).toContain(processFolder(directory, driven.pid));
  });

  it('a kernel-name pattern std::regex cannot compile: said on stderr, and the manifest records that nothing was selected', async () => {
    const { directory, driven, stderr } = drive('lookbehind', { KREPLAY_CAPTURE_KERNEL_NAME: '(?<=_)scale' });
    expect(driven.initialized).toBe(0);
    expect(stderr).toContain('[kreplay capture] KREPLAY_CAPTURE_KERNEL_NAME=(?<=_)scale is not a valid regular expression for the capture library');
    expect(stderr).toContain('Nothing is captured');
    const manifest = JSON.parse(readFileSync(join(processFolder(directory, driven.pid), 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['selectionError']).toMatch(/^KREPLAY_CAPTURE_KERNEL_NAME=\(\?<=_\)scale is not a valid regular expression .*lookbehind/);
    const capture = await readCaptureFolder(directory);
    expect(capture.manifest.selectionError).toBe(manifest['selectionError']);
    expect(capture.launches).toEqual([]);
  });
});
