import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kernelModuleMaxBytes, readKernelModuleFile } from './kernel-module-file.js';

const folder = mkdtempSync(join(tmpdir(), 'kreplay-kernel-module-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('reading a kernel module file', () => {
  it('reads a regular file', async () => {
    const path = join(folder, 'k.ptx');
    writeFileSync(path, '.version 8.0\n');
    expect(await readKernelModuleFile(path)).toEqual({ bytes: Buffer.from('.version 8.0\n') });
  });

  it('refuses a directory, a FIFO, a missing file and a file over the limit, without reading from them', async () => {
    const fifo = join(folder, 'fifo.ptx');
    execFileSync('mkfifo', [fifo]);
    const huge = join(folder, 'huge.fatbin');
    writeFileSync(huge, '');
    truncateSync(huge, kernelModuleMaxBytes + 1); // sparse: nothing is written
    expect(await readKernelModuleFile(folder)).toMatchObject({ reason: 'not-regular', problem: 'is a directory, not a regular file' });
    expect(await readKernelModuleFile(fifo)).toMatchObject({ reason: 'not-regular', problem: 'is a FIFO, not a regular file' });
    expect(await readKernelModuleFile(join(folder, 'none.ptx'))).toMatchObject({ reason: 'missing' });
    expect(await readKernelModuleFile(huge)).toMatchObject({ reason: 'too-large', size: kernelModuleMaxBytes + 1 });
  });
});
