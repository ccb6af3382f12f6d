import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureBlobId } from './capture-blob.js';
import { readCaptureFolder } from './capture-folder.js';
import { pageHash } from '../queue/page-hash.js';

// The capture session of libkreplay-capture.so (src/capture/inject/capture-session.cpp), driven over a
// fake device by the C++ test program (write-session-capture.cpp: three launches of `scale` over a
// 2.5-page range and a 4-byte global, each page filled with one byte value, a memset between the
// first two), read back with readCaptureFolder. With a kill on the session's 5th copy (during the third
// launch's copy of changed pages), the process dies by SIGKILL mid-capture.
const program = fileURLToPath(new URL('../../build/tests/kreplay-capture-test', import.meta.url));
const built = existsSync(program);
const pageBytes = 65536;

interface WrittenLaunch {
  readonly before: readonly number[];
  readonly after: readonly number[];
  readonly counterBefore: number;
  readonly counterAfter: number;
}
interface Written {
  readonly base: number;
  readonly counter: number;
  readonly bytes: number;
  readonly launches: readonly WrittenLaunch[];
}

/** The pages of a range of `bytes` bytes whose page i is filled with fills[i]. */
function pages(fills: readonly number[], bytes: number): Uint8Array[] {
  return fills.map((value, index) => new Uint8Array(Math.min(pageBytes, bytes - index * pageBytes)).fill(value));
}

describe.skipIf(!built)('readCaptureFolder on what the capture session wrote', () => {
  let root = '';
  let written: Written;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'kreplay-capture-session-'));
    const result = spawnSync(program, ['--write-session-capture', join(root, 'whole')], { encoding: 'utf8' });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    written = JSON.parse(result.stdout) as Written;
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('every launch, its parameters laid out by the module metadata, the manifest complete', async () => {
    const folder = await readCaptureFolder(join(root, 'whole'));
    expect(folder.damaged).toEqual([]);
    expect(folder.incomplete).toEqual([]);
    expect(folder.manifest).toMatchObject({ complete: true, command: ['fake-program'], device: { name: 'fake device', architecture: 'sm_90' } });
    expect(folder.launches.map((launch) => launch.function)).toEqual(['scale', 'scale', 'scale']);
    folder.launches.forEach((launch, index) => {
      expect(launch.parameters).toEqual([{ index: 0, offset: 0, size: 8 }, { index: 1, offset: 8, size: 4 }]);
      const view = new DataView(launch.parameterBuffer.buffer, launch.parameterBuffer.byteOffset, launch.parameterBuffer.byteLength);
      expect(view.getBigUint64(0, true)).toBe(BigInt(written.base));
      expect(view.getInt32(8, true)).toBe(index + 1);
      expect(launch.shape.grid).toEqual([index + 1, 1, 1]);
      expect(launch.pageBytes).toBe(pageBytes);
    });
  });

  it('pagesBefore are the bytes before each launch, pageHashesAfter the core page hashes of the bytes after', async () => {
    const folder = await readCaptureFolder(join(root, 'whole'));
    folder.launches.forEach((launch, index) => {
      const expected = written.launches[index]!;
      const [range, counter] = launch.memory;
      expect(range).toMatchObject({ base: written.base, bytes: written.bytes, kind: 'device', label: '' });
      expect(range!.pagesBefore).toEqual(pages(expected.before, written.bytes).map(captureBlobId));
      expect(range!.pageHashesBefore).toEqual(pages(expected.before, written.bytes).map(pageHash));
      expect(range!.pageHashesAfter).toEqual(pages(expected.after, written.bytes).map(pageHash));
      expect(counter).toMatchObject({ base: written.counter, bytes: 4, kind: 'module-global', label: 'counter' });
      expect(counter!.pagesBefore).toEqual([captureBlobId(new Uint8Array(4).fill(expected.counterBefore))]);
      expect(counter!.pageHashesAfter).toEqual([pageHash(new Uint8Array(4).fill(expected.counterAfter))]);
    });
  });

  it('the three launches form one captured sequence: the memset between the first two is its work', async () => {
    const folder = await readCaptureFolder(join(root, 'whole'));
    expect(folder.launches.map(({ follows, sequenceBreak, stream }) => ({ follows, sequenceBreak, stream }))).toEqual([
      { follows: null, sequenceBreak: 'first-launch', stream: '0x0' },
      { follows: 0, sequenceBreak: null, stream: '0x0' },
      { follows: 1, sequenceBreak: null, stream: '0x0' },
    ]);
    expect(folder.launches[0]!.workBefore).toEqual([{ kind: 'allocation', address: written.base, bytes: written.bytes, memoryKind: 'device' }]);
    expect(folder.launches[1]!.workBefore).toEqual([{ kind: 'memset', stream: '0x0', address: written.base, bytes: pageBytes, value: 3, elementBytes: 1 }]);
    expect(folder.launches[2]!.workBefore).toEqual([]);
    expect(folder.manifest).toMatchObject({ sequences: 1, cost: { launches: 3 } });
    // Copied to the host: all of both ranges before the first launch; then only the pages that changed.
    expect(folder.manifest.cost!.bytesCopiedToHost).toBe(written.bytes + 4 + 2 * pageBytes + written.bytes - 2 * pageBytes + 4);
  });

  it('a page is stored once: the blobs are the module plus one per distinct page content', async () => {
    const folder = await readCaptureFolder(join(root, 'whole'));
    const distinct = new Set(folder.launches.flatMap((launch) => launch.memory.flatMap((range) => range.pagesBefore)));
    const files = readdirSync(join(root, 'whole', 'blobs'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files).toHaveLength(distinct.size + 1);
  });

  it('a program killed mid-capture leaves the launches that finished, readable, and the capture not complete', async () => {
    const result = spawnSync(program, ['--write-session-capture', join(root, 'killed'), '5'], { encoding: 'utf8' });
    expect(result.signal).toBe('SIGKILL');
    const folder = await readCaptureFolder(join(root, 'killed'));
    expect(folder.manifest.complete).toBe(false);
    expect(folder.damaged).toEqual([]);
    // The writer works in the background: the first launches it had committed when the kill came,
    // complete, and none after a missing one.
    const committed = folder.launches.map((launch) => launch.sequence);
    expect(committed).toEqual([0, 1].slice(0, committed.length));
    const whole = await readCaptureFolder(join(root, 'whole'));
    // The same contents as the whole run's first launches (host addresses differ between runs).
    const contents = (launches: typeof folder.launches) => launches.map((launch) => launch.memory.map(({ pagesBefore, pageHashesAfter }) => ({ pagesBefore, pageHashesAfter })));
    expect(contents(folder.launches)).toEqual(contents(whole.launches.slice(0, committed.length)));
  });
});
