import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile } from './read-regular-file.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-read-regular-file-'));
const fifo = join(root, 'fifo');
execFileSync('mkfifo', [fifo]);
afterAll(() => {
  // Releases a reader that regressed and blocks on opening the FIFO.
  closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
  rmSync(root, { recursive: true, force: true });
});

const file = join(root, 'file.json');
writeFileSync(file, '{"a":1}');
symlinkSync(file, join(root, 'link'));
symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
symlinkSync('/dev/zero', join(root, 'zero'));
mkdirSync(join(root, 'directory'));
writeFileSync(join(root, 'sparse'), '');
truncateSync(join(root, 'sparse'), 2 ** 33);

describe('readRegularFile', () => {
  it('reads a regular file of at most maxBytes', async () => {
    expect(await readRegularFile(file, { maxBytes: 7 })).toEqual({ bytes: Buffer.from('{"a":1}') });
    expect(await readRegularFile(join(root, 'link'), { maxBytes: 7, followSymlinks: true })).toEqual({ bytes: Buffer.from('{"a":1}') });
  });

  it('refuses links, directories, FIFOs, devices and files over the limit without reading them (or blocking)', async () => {
    const refused = async (name: string, followSymlinks = false) => readRegularFile(join(root, name), { maxBytes: 1024, followSymlinks });
    expect(await refused('link')).toEqual({ reason: 'symlink', problem: 'is a symbolic link' });
    expect(await refused('dangling')).toEqual({ reason: 'symlink', problem: 'is a symbolic link' });
    expect(await refused('dangling', true)).toEqual({ reason: 'missing', problem: 'is missing' });
    expect(await refused('zero')).toEqual({ reason: 'symlink', problem: 'is a symbolic link' });
    expect(await refused('zero', true)).toEqual({ reason: 'not-regular', problem: 'is a character device, not a regular file' });
    expect(await refused('directory')).toEqual({ reason: 'not-regular', problem: 'is a directory, not a regular file' });
    expect(await refused('fifo')).toEqual({ reason: 'not-regular', problem: 'is a FIFO, not a regular file' });
    expect(await refused('absent')).toEqual({ reason: 'missing', problem: 'is missing' });
    expect(await refused('sparse')).toEqual({ reason: 'too-large', size: 2 ** 33, problem: 'is 8589934592 bytes, more than the 1024 this reader takes' });
  });

  it('takes maxBytes as a non-negative safe integer', async () => {
    await expect(readRegularFile(file, { maxBytes: Number.POSITIVE_INFINITY })).rejects.toBeInstanceOf(RangeError);
  });
});
