import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic.js';
import { writeReportFile } from './write-report-files.js';

const builtPackage = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

describe('writeFileAtomic', () => {
  it('replaces a file with the whole new text and leaves nothing else in the directory', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-atomic-'));
    const path = join(directory, 'report.json');
    await writeFile(path, 'earlier');
    await writeFileAtomic(path, 'the new report');
    expect(await readFile(path, 'utf8')).toBe('the new report');
    expect(await readdir(directory)).toEqual(['report.json']);
  });

  it('replaces the file a symbolic link points to, keeping the link', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-atomic-'));
    await writeFile(join(directory, 'real.json'), 'earlier');
    await symlink(join(directory, 'real.json'), join(directory, 'link.json'));
    await writeFileAtomic(join(directory, 'link.json'), 'new');
    expect(await readFile(join(directory, 'real.json'), 'utf8')).toBe('new');
    expect((await stat(join(directory, 'link.json'))).isFile()).toBe(true);
    expect((await readdir(directory)).sort()).toEqual(['link.json', 'real.json']);
  });

  it('fails with the system code on a directory or a missing parent, leaving no temporary file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-atomic-'));
    await mkdir(join(directory, 'folder'));
    await expect(writeFileAtomic(join(directory, 'folder'), 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(writeFileAtomic(join(directory, 'missing', 'r.json'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(directory)).toEqual(['folder']);
    expect(await readdir(join(directory, 'folder'))).toEqual([]);
    await expect(writeReportFile(join(directory, 'folder'), 'x')).rejects.toThrow(/^\[bench\] \[report\] .*folder: cannot be written \(EISDIR\)\. Choose a path in a writable directory\.$/);
  });

  it('keeps the earlier file whole when the process exits while the new one is being written', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-atomic-'));
    const path = join(directory, 'report.json');
    const earlier = `${JSON.stringify({ earlier: true })}\n`;
    await writeFile(path, earlier);
    // The child starts a 64 MiB write and exits (as a second Ctrl-C does) as soon as the write shows
    // in the directory: a new entry, or the file's size changing.
    const script = `
      import { readdirSync, statSync } from 'node:fs';
      const { writeFileAtomic } = await import(${JSON.stringify(builtPackage)});
      const [directory, path] = process.argv.slice(1);
      const size = statSync(path).size;
      void writeFileAtomic(path, 'x'.repeat(64 * 2 ** 20));
      const poll = () => {
        if (readdirSync(directory).length > 1 || statSync(path).size !== size) process.exit(130);
        setImmediate(poll);
      };
      poll();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, directory, path], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    expect(await readFile(path, 'utf8')).toBe(earlier);
    expect(await readdir(directory)).toEqual(['report.json']);
  });

  it('removes the temporary files a killed writer left beside the file, never one of a live process', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-atomic-'));
    const path = join(directory, 'r.json');
    // A process that has ended, and one that runs until the test ends.
    const ended = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => ended.on('exit', resolve));
    const running = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      const stale = `.r.json.${ended.pid}.0123456789ab.tmp`;
      const live = `.r.json.${running.pid}.0123456789ab.tmp`;
      const otherFile = `.other.json.${ended.pid}.0123456789ab.tmp`;
      for (const name of [stale, live, otherFile]) await writeFile(join(directory, name), 'part of a report');
      await writeFileAtomic(path, 'the report');
      expect(await readFile(path, 'utf8')).toBe('the report');
      expect((await readdir(directory)).sort()).toEqual([live, otherFile, 'r.json'].sort());
    } finally {
      running.kill();
    }
  });

  it('removes its temporary file when a signal ends the process while it writes', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-atomic-'));
    const path = join(directory, 'report.json');
    await writeFile(path, 'earlier');
    // The child sends itself SIGTERM as soon as its temporary file shows in the directory.
    const script = `
      import { readdirSync } from 'node:fs';
      const { writeFileAtomic } = await import(${JSON.stringify(builtPackage)});
      const [directory, path] = process.argv.slice(1);
      void writeFileAtomic(path, 'x'.repeat(64 * 2 ** 20));
      const poll = () => {
        if (readdirSync(directory).length > 1) process.kill(process.pid, 'SIGTERM');
        else setImmediate(poll);
      };
      poll();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, directory, path], { stdio: 'inherit' });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, received) => resolve(received)));
    expect(signal).toBe('SIGTERM');
    expect(await readdir(directory)).toEqual(['report.json']);
    expect(await readFile(path, 'utf8')).toBe('earlier');
  });
});
