import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureBlobId } from './capture-blob.js';
import { readCaptureFolder } from './capture-folder.js';
import { captureLibraryPath } from './capture-library-path.js';
import { pageHash } from '../queue/page-hash.js';

// libkreplay-capture.so's CUPTI glue end to end without a GPU: kreplay-capture-test --drive-injection
// (src/capture/test/drive-injection.cpp) loads it, calls InitializeInjection, and raises callbacks
// through build/tests/fake-cupti/libcupti.so (a libcupti and libcuda stand-in over host memory whose
// page-hash kernel is core's pageHash; it raises callbacks for the library's own calls, which must be
// ignored): a module, an allocation, launches on two streams with a memset, an upload, a host
// function, a launch of another kernel and an event wait between them, a graph launch; the process
// then exits normally.
const build = (path: string) => fileURLToPath(new URL(`../../build/${path}`, import.meta.url));
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
  readonly hashModuleLoads: number;
  readonly hashLaunches: number;
  readonly hashedBytes: number;
  readonly stagedBytes: number;
  readonly pinnedAllocations: number;
  readonly launches: readonly { readonly seen: number; readonly stream: string; readonly before: readonly number[]; readonly after: readonly number[]; readonly counter: number }[];
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
  it('subscribes, enables its callbacks, captures every launch of scale on both streams and counts the graph launch; exit finishes the capture', async () => {
    const { directory, driven, stderr } = drive('every', {
      KREPLAY_CAPTURE_EVERY_LAUNCH: '1',
      KREPLAY_CAPTURE_KERNEL_NAME: 'scale',
      KREPLAY_CAPTURE_COMMAND: '["train.py","--steps","1"]',
      KREPLAY_CAPTURE_STAGING_BYTES: '1048576',
      KREPLAY_CAPTURE_WRITER_THREADS: '2',
    });
    expect(driven.initialized).toBe(1);
    expect(driven.enabled).toBe(17);
    expect(stderr).toContain(`[kreplay capture] capturing into ${processFolder(directory, driven.pid)}`);
    expect(stderr).not.toContain('module 999'); // its own page-hash module is not the program's
    // A folder one process captured into reads as that process's capture.
    const capture = await readCaptureFolder(directory);
    expect(capture.directory).toBe(processFolder(directory, driven.pid));
    expect(capture.manifest).toMatchObject({
      formatVersion: 2,
      complete: true,
      command: ['train.py', '--steps', '1'],
      device: { name: 'Fake CUPTI device', architecture: 'sm_90' },
      process: { pid: driven.pid, parentPid: process.pid },
    });
    expect(capture.manifest.notCaptured['graph-launch']).toBe(1);
    expect(capture.manifest.notCaptured['no-parameter-metadata']).toBe(0);
    expect(capture.damaged).toEqual([]);
    expect(capture.launches.map((launch) => launch.function)).toEqual(Array(6).fill('scale'));
    capture.launches.forEach((launch, index) => {
      const seen = driven.launches[index]!;
      expect(launch.shape).toMatchObject({ grid: [2, 1, 1], block: [64, 1, 1] });
      expect(launch.stream).toBe(seen.stream);
      const view = new DataView(launch.parameterBuffer.buffer, launch.parameterBuffer.byteOffset, launch.parameterBuffer.byteLength);
      expect(view.getBigUint64(0, true)).toBe(BigInt(driven.base));
      // Only the program's allocation and the module's global: the library's own calls' callbacks are ignored.
      expect(launch.memory.map((range) => [range.base, range.kind, range.label])).toEqual([
        [driven.base, 'device', ''],
        [driven.counter, 'module-global', 'counter'],
      ]);
      const [range] = launch.memory;
      expect(range!.pagesBefore).toEqual(seen.before.map(fill).map(captureBlobId));
      expect(range!.pageHashesBefore).toEqual(seen.before.map(fill).map(pageHash));
      expect(range!.pageHashesAfter).toEqual(seen.after.map(fill).map(pageHash));
    });
    expect(capture.launches.map(({ follows, sequenceBreak }) => follows ?? sequenceBreak)).toEqual([
      'first-launch',
      0, // the memset between them is its work
      'other-stream',
      'host-function',
      'uncaptured-launch',
      'cross-stream-wait',
    ]);
    expect(capture.launches[1]!.workBefore).toEqual([{ kind: 'memset', stream: '0x51', address: driven.base + 65536, bytes: 65536, value: 5, elementBytes: 1 }]);
    expect(capture.launches[2]!.workBefore).toEqual([{ kind: 'upload', stream: '0x52', destination: driven.base + 2 * 65536, bytes: 65536 }]);
    expect(capture.manifest).toMatchObject({
      sequences: 5,
      sequenceBreaks: { 'other-stream': 1, 'host-function': 1, 'uncaptured-launch': 1, 'cross-stream-wait': 1, 'unbounded-write': 0 },
      cost: { launches: 6, bytesCopiedToHost: driven.stagedBytes },
    });
    expect(capture.manifest.cost!.deviceBytesHashed).toBe(driven.hashedBytes);
    // The page-hash kernel was loaded once, into the one context; staging and the hashes' buffer pinned once each.
    expect(driven.hashModuleLoads).toBe(1);
    expect(driven.hashLaunches).toBeGreaterThanOrEqual(6);
    expect(driven.pinnedAllocations).toBe(2);
    // Copied to the host: everything before the first launch, then only the pages that changed.
    expect(driven.stagedBytes).toBe(driven.bytes + 4 + 5 * 65536);
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

  it('selects kernels as ncu reads --kernel-name: the name whole, or regex: searched, in the name --kernel-name-base names', async () => {
    const launches = async (name: string, environment: Record<string, string>) => (await readCaptureFolder(drive(name, { KREPLAY_CAPTURE_EVERY_LAUNCH: '1', ...environment }).directory)).launches.length;
    expect(await launches('whole', { KREPLAY_CAPTURE_KERNEL_NAME: 'scale' })).toBe(6);
    expect(await launches('part', { KREPLAY_CAPTURE_KERNEL_NAME: 'sca' })).toBe(0);
    expect(await launches('searched', { KREPLAY_CAPTURE_KERNEL_NAME: 'regex:^sca' })).toBe(6);
    expect(await launches('mangled', { KREPLAY_CAPTURE_KERNEL_NAME: 'regex:^sca', KREPLAY_CAPTURE_KERNEL_NAME_BASE: 'mangled' })).toBe(6);
    const bad = drive('bad-base', { KREPLAY_CAPTURE_KERNEL_NAME_BASE: 'symbol' });
    expect(bad.stderr).toContain('KREPLAY_CAPTURE_KERNEL_NAME_BASE=symbol is not function, demangled or mangled');
  });

  it('gives each of several processes capturing into one folder at once a capture of its own (processes/<pid>), none lost or mixed', async () => {
    const directory = join(root, 'ranks');
    const ranks = await Promise.all([0, 1, 2].map(() => driveAlongside(directory, { KREPLAY_CAPTURE_EVERY_LAUNCH: '1', KREPLAY_CAPTURE_KERNEL_NAME: 'scale' })));
    expect(readdirSync(join(directory, 'processes')).sort()).toEqual(ranks.map(({ driven }) => String(driven.pid)).sort());
    for (const { driven, stderr } of ranks) {
      expect(driven.initialized).toBe(1);
      expect(stderr).toContain(`[kreplay capture] capturing into ${processFolder(directory, driven.pid)}`);
      const capture = await readCaptureFolder(processFolder(directory, driven.pid));
      expect(capture.manifest).toMatchObject({ complete: true, process: { pid: driven.pid } });
      expect(capture.manifest.notCaptured['graph-launch']).toBe(1);
      expect(capture.damaged).toEqual([]);
      expect(capture.incomplete).toEqual([]);
      expect(capture.launches.map((launch) => launch.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
      capture.launches.forEach((launch, index) => {
        // This process's own allocation, and what this process's memory held.
        expect(launch.memory[0]!.base).toBe(driven.base);
        expect(launch.memory[0]!.pagesBefore).toEqual(driven.launches[index]!.before.map(fill).map(captureBlobId));
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
    const { directory, driven, stderr } = drive('lookbehind', { KREPLAY_CAPTURE_KERNEL_NAME: 'regex:(?<=_)scale' });
    expect(driven.initialized).toBe(0);
    expect(stderr).toContain('[kreplay capture] KREPLAY_CAPTURE_KERNEL_NAME=regex:(?<=_)scale is not a valid regular expression for the capture library');
    expect(stderr).toContain('Nothing is captured');
    const manifest = JSON.parse(readFileSync(join(processFolder(directory, driven.pid), 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['selectionError']).toMatch(/^KREPLAY_CAPTURE_KERNEL_NAME=regex:\(\?<=_\)scale is not a valid regular expression .*lookbehind/);
    const capture = await readCaptureFolder(directory);
    expect(capture.manifest.selectionError).toBe(manifest['selectionError']);
    expect(capture.launches).toEqual([]);
  });
});
