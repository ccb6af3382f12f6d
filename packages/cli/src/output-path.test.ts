import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputPath, checkOutputPaths } from './output-path.js';
import { UsageError } from './usage-error.js';

const asFile = { kind: 'file', command: 'bench', option: '--out' } as const;
const asDirectory = { kind: 'directory', command: 'capture', option: '-o' } as const;

describe('checkOutputPath', () => {
  it('accepts a new or existing file in a writable directory, and leaves nothing behind', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-output-'));
    await writeFile(join(directory, 'old.json'), 'kept');
    await checkOutputPath(join(directory, 'new.json'), asFile);
    await checkOutputPath(join(directory, 'old.json'), asFile);
    await checkOutputPath('/dev/null', asFile);
    expect(await readdir(directory)).toEqual(['old.json']);
  });

  it('refuses a directory, a missing or non-directory parent, and a directory that takes no files', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-output-'));
    await writeFile(join(directory, 'file'), '');
    for (const [path, pattern] of [
      [directory, /^\[cli\] \[bench\] --out .*: is a directory\. Pass a path to a file, e\.g\. .*report\.json\.$/],
      [join(directory, 'missing', 'r.json'), /--out .*missing\/r\.json: the directory .*missing does not exist\. Create it first, or choose another path\.$/],
      [join(directory, 'file', 'r.json'), /: .*file is not a directory\./],
      ['/sys/r.json', /--out \/sys\/r\.json: files cannot be created in \/sys \(EACCES\)\. Choose a path in a writable directory\.$/],
      ['', /--out : is empty/],
    ] as const) {
      const error = await checkOutputPath(path, asFile).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(pattern);
    }
  });

  it('for a directory: accepts an existing or creatable one, refuses a file or a missing parent', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-output-'));
    await mkdir(join(directory, 'existing'));
    await writeFile(join(directory, 'file'), '');
    await checkOutputPath(join(directory, 'existing'), asDirectory);
    await checkOutputPath(join(directory, 'new'), asDirectory);
    await expect(checkOutputPath(join(directory, 'file'), asDirectory)).rejects.toThrow(/^\[cli\] \[capture\] -o .*file: exists and is not a directory\./);
    await expect(checkOutputPath(join(directory, 'a', 'b'), asDirectory)).rejects.toThrow(/does not exist/);
    await expect(checkOutputPath('/sys', asDirectory)).rejects.toThrow(/cannot be written into \(EACCES\)/);
    expect((await readdir(directory)).sort()).toEqual(['existing', 'file']);
  });

  it('checks every given option in order, and refuses two options naming one file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-output-'));
    await checkOutputPaths('bench', { '--out': join(directory, 'r.json'), '--html': undefined });
    await expect(checkOutputPaths('bench', { '--out': join(directory, 'r.json'), '--html': directory })).rejects.toThrow(/--html .*: is a directory\. Pass a path to a file, e\.g\. .*report\.html\./);
    await expect(checkOutputPaths('bench', { '--out': join(directory, 'r.json'), '--html': join(directory, '.', 'r.json') })).rejects.toThrow(
      /^\[cli\] \[bench\] --out and --html both name .*r\.json\. Give each output its own file\.$/,
    );
  });
});
