import { execFileSync } from 'node:child_process';
import { closeSync, constants, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureBlobPath } from './capture-blob.js';
import { readCaptureFolder } from './capture-folder.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { captureFixtureAxpyParameters } from '../test/capture-fixture.js';
import { writeTestCapture } from '../test/capture-folder-writer.js';

// Folders that are damaged past what a writer that stopped leaves, or made to hurt the reader: what
// should be a file is a directory, a link, a FIFO or far too large, or its JSON nests thousands deep.
// Each ends as a damaged launch or a CaptureFormatError naming the file, never a crash or a hang.
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-hostile-'));
const fifos: string[] = [];
afterAll(() => {
  // A reader that regressed and blocks on opening a FIFO is let go: an open for writing releases it.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const ptx = readFileSync(new URL('../../test/gpu/kernels/capture-fixture-axpy.ptx', import.meta.url));
const base = 0x7f40_0000_0000;
const launch = (parameters: Uint8Array, fill = 7) => ({
  function: 'kreplay_capture_fixture_axpy',
  module: ptx,
  grid: [1, 1, 1] as const,
  block: [32, 1, 1] as const,
  parameters,
  memory: [{ base, kind: 'device' as const, before: new Uint8Array(4096).fill(fill) }],
});
const pristine = writeTestCapture(join(root, 'pristine'), {
  // Pages of other content: a blob damaged in launch 1 is not one of launch 0's.
  launches: [launch(captureFixtureAxpyParameters(base, base, 2, 1024), 7), launch(captureFixtureAxpyParameters(base, base, 3, 1024), 8)],
});
const record = 'launches/00000001.json';
const pageBlob = (folder: string) => captureBlobPath((JSON.parse(readFileSync(join(folder, record), 'utf8')) as { memory: { pagesBefore: string[] }[] }).memory[0]!.pagesBefore[0]!);

let copies = 0;
/** A copy of a valid capture (by default `pristine`), with `damage` done to it. */
function damaged(damage: (folder: string) => void, from = pristine): string {
  const folder = join(root, `copy-${(copies += 1)}`);
  cpSync(from, folder, { recursive: true });
  damage(folder);
  return folder;
}

function replaceWith(path: string, make: (path: string) => void): void {
  rmSync(path, { recursive: true, force: true });
  make(path);
}

function fifo(path: string): void {
  execFileSync('mkfifo', [path]);
  fifos.push(path);
}

/** Rejects when `promise` takes longer than `ms`: a reader that blocks fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the reader did not answer within ${ms} ms (it blocked)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Reads `folder` and expects launch 1 damaged with a reason matching `reason`, launch 0 intact. */
async function expectDamaged(folder: string, reason: RegExp, options: { verifyBlobs?: boolean } = {}): Promise<void> {
  const read = await within(readCaptureFolder(folder, options));
  expect(read.launches.map((found) => found.sequence)).toEqual([0]);
  expect(read.damaged).toHaveLength(1);
  expect(read.damaged[0]).toMatchObject({ file: record, sequence: 1 });
  expect(read.damaged[0]!.reason).toMatch(reason);
}

describe('readCaptureFolder on hostile folders', { timeout: 30_000 }, () => {
  it('reads the valid folder these cases damage', async () => {
    const folder = await readCaptureFolder(pristine);
    expect(folder.launches.map((found) => found.sequence)).toEqual([0, 1]);
    expect(folder.damaged).toEqual([]);
  });

  it('a record that is a directory, a link (dangling or not), a FIFO, or larger than any record is damaged, named with what it is', async () => {
    await expectDamaged(damaged((folder) => replaceWith(join(folder, record), (path) => mkdirSync(path))), /^launches\/00000001\.json is a directory, not a regular file$/);
    await expectDamaged(damaged((folder) => replaceWith(join(folder, record), (path) => symlinkSync(join(folder, 'nowhere'), path))), /^launches\/00000001\.json is a symbolic link$/);
    await expectDamaged(damaged((folder) => replaceWith(join(folder, record), (path) => symlinkSync(join(folder, 'launches/00000000.json'), path))), /is a symbolic link$/);
    await expectDamaged(damaged((folder) => replaceWith(join(folder, record), fifo)), /^launches\/00000001\.json is a FIFO, not a regular file$/);
    // 600 MB, sparse: refused by its size before a byte of it is read.
    await expectDamaged(damaged((folder) => truncateSync(join(folder, record), 600 * 2 ** 20)), /^launches\/00000001\.json is 629145600 bytes, more than the \d+ this reader takes$/);
  });

  it('a record nested 20,000 deep is damaged without parsing it (no stack overflow)', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    await expectDamaged(damaged((folder) => writeFileSync(join(folder, record), deep)), /^launches\/00000001\.json nests arrays and objects deeper than the 8 levels a capture file has \(at character 8\)/);
    const deepField = (text: string) => text.replace('"attributes":[]', `"attributes":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
    await expectDamaged(damaged((folder) => writeFileSync(join(folder, record), deepField(readFileSync(join(folder, record), 'utf8')))), /deeper than the 8 levels/);
  });

  it('a blob that links to /dev/zero, is a FIFO or a directory damages its launch, with or without verification, never blocking', async () => {
    for (const verifyBlobs of [true, false]) {
      await expectDamaged(damaged((folder) => replaceWith(join(folder, pageBlob(folder)), (path) => symlinkSync('/dev/zero', path))), /memory\[0\]\.pagesBefore\[0\] names a damaged blob: blobs\/\w\w\/\w+-4096 is a symbolic link$/, { verifyBlobs });
      await expectDamaged(damaged((folder) => replaceWith(join(folder, pageBlob(folder)), fifo)), /names a damaged blob: blobs\/\w\w\/\w+-4096 is (a FIFO, )?not a regular file$/, { verifyBlobs });
      await expectDamaged(damaged((folder) => replaceWith(join(folder, pageBlob(folder)), (path) => mkdirSync(path))), /names a damaged blob: blobs\/\w\w\/\w+-4096 is (a directory, )?not a regular file$/, { verifyBlobs });
    }
  });

  it('a manifest that is a FIFO, a link, a directory or nested deep is a CaptureFormatError naming manifest.json, at once', async () => {
    const cases: [(path: string) => void, RegExp][] = [
      [fifo, /holds no readable manifest\.json \(it is a FIFO, not a regular file\)\. Pass the folder/],
      [(path) => symlinkSync('/dev/zero', path), /holds no readable manifest\.json \(it is a symbolic link\)\./],
      [(path) => mkdirSync(path), /holds no readable manifest\.json \(it is a directory, not a regular file\)\./],
      [(path) => writeFileSync(path, `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`), /manifest\.json nests arrays and objects deeper than the 8 levels a capture file has \(at character 40\)/],
    ];
    for (const [make, message] of cases) {
      const folder = damaged((copy) => replaceWith(join(copy, 'manifest.json'), make));
      const error = await within(readCaptureFolder(folder)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CaptureFormatError);
      expect(error).toMatchObject({ file: 'manifest.json' });
      expect((error as Error).message).toMatch(message);
    }
  });

  it('a record whose parameter buffer is shorter than its module declares for the kernel is damaged, naming the kernel and both sizes', async () => {
    const empty = writeTestCapture(join(root, 'empty-parameters'), {
      launches: [launch(captureFixtureAxpyParameters(base, base, 2, 1024)), launch(new Uint8Array(0)), launch(new Uint8Array(20))],
    });
    const folder = await readCaptureFolder(empty);
    expect(folder.launches.map((found) => found.sequence)).toEqual([0]);
    expect(folder.damaged.map(({ file, field }) => ({ file, field }))).toEqual([
      { file: 'launches/00000001.json', field: 'parameters.buffer' },
      { file: 'launches/00000002.json', field: 'parameters.buffer' },
    ]);
    expect(folder.damaged[0]!.reason).toBe(
      'launches/00000001.json: parameters.buffer holds 0 bytes, but its module declares 4 parameters of kernel kreplay_capture_fixture_axpy in 24 bytes (the last ending at byte 24)',
    );
    expect(folder.damaged[1]!.reason).toMatch(/parameters\.buffer holds 20 bytes, but its module declares 4 parameters of kernel kreplay_capture_fixture_axpy in 24 bytes/);
  });

  it('version 2 fields of the wrong type (the work before a launch, its stream, its hashes before) are damage named by field', async () => {
    const version2 = writeTestCapture(join(root, 'version-2'), {
      formatVersion: 2,
      launches: [launch(captureFixtureAxpyParameters(base, base, 2, 1024), 7), { ...launch(captureFixtureAxpyParameters(base, base, 3, 1024), 8), workBefore: [{ kind: 'free', address: base }] }],
    });
    expect((await readCaptureFolder(version2)).launches).toHaveLength(2);
    const cases: [(value: Record<string, any>) => void, string, RegExp][] = [
      [(value) => { value.workBefore = 5; }, 'workBefore', /workBefore is 5, not array$/],
      [(value) => { value.workBefore = [null]; }, 'workBefore[0]', /workBefore\[0\] is null, not object$/],
      [(value) => { value.workBefore[0].address = '0xffffffffffffffff'; }, 'workBefore[0].address', /is past the addresses this reader can hold/],
      [(value) => { value.stream = 5; }, 'stream', /stream is 5, not string$/],
      [(value) => { value.memory[0].pageHashesBefore[0] = 'not hex'; }, 'memory[0].pageHashesBefore[0]', /does not match/],
    ];
    for (const [edit, field, reason] of cases) {
      const folder = damaged((copy) => {
        const path = join(copy, record);
        const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
        edit(value);
        writeFileSync(path, JSON.stringify(value));
      }, version2);
      const read = await readCaptureFolder(folder);
      expect(read.launches.map((found) => found.sequence), field).toEqual([0]);
      expect(read.damaged[0], field).toMatchObject({ file: record, field });
      expect(read.damaged[0]!.reason, field).toMatch(reason);
    }
  });

  it('a version 1 record holding fields of version 2, of any type, reads with version 1\'s defaults for them', async () => {
    const cases: ((value: Record<string, any>) => void)[] = [
      (value) => { value.workBefore = 5; },
      (value) => { value.workBefore = [{ kind: 'free', address: '0x10' }]; },
      (value) => { value.memory[0].pageHashesBefore = 'not a list'; },
      (value) => { value.memory[0].pageHashesBefore = ['0000000000000000', '0000000000000000']; },
      (value) => { Object.assign(value, { stream: 5, context: null, follows: 'x', sequenceBreak: 7 }); },
    ];
    for (const [position, edit] of cases.entries()) {
      const folder = damaged((copy) => {
        const path = join(copy, record);
        const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
        edit(value);
        writeFileSync(path, JSON.stringify(value));
      });
      const read = await readCaptureFolder(folder);
      expect(read.damaged, `case ${position}`).toEqual([]);
      expect(read.launches[1], `case ${position}`).toMatchObject({ formatVersion: 1, stream: null, context: null, follows: null, sequenceBreak: null, workBefore: [] });
      expect(read.launches[1]!.memory[0]!.pageHashesBefore, `case ${position}`).toBeNull();
    }
  });
});
