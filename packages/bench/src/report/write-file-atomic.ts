import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Temporary files being written; removed if the process exits before they are renamed. */
const unfinished = new Set<string>();

function removeUnfinished(): void {
  for (const path of unfinished) rmSync(path, { force: true });
}

function track(path: string): void {
  if (unfinished.size === 0) process.on('exit', removeUnfinished);
  unfinished.add(path);
}

function untrack(path: string): void {
  unfinished.delete(path);
  if (unfinished.size === 0) process.off('exit', removeUnfinished);
}

/**
 * Writes a file so that it is either the old file or the whole new one, never a part: the data
 * goes to a temporary file in the same directory, is flushed, then renamed over `path` (a symbolic
 * link is followed, so the file it points to is replaced). If the process exits before the rename
 * (a second Ctrl-C, `process.exit`), the temporary file is removed and `path` keeps what it held.
 * A `path` that exists and is neither a file nor a directory (a pipe, `/dev/stdout`) is written in
 * place, as it cannot be replaced.
 * @throws the file system's error (with its `code`, e.g. `EISDIR`, `ENOENT`, `EACCES`) when the
 * file cannot be written; `path` is then left as it was and no temporary file remains.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const target = await realpath(path).catch(() => resolve(path));
  const existing = await stat(target).catch(() => undefined);
  if (existing !== undefined && !existing.isFile() && !existing.isDirectory()) {
    await writeFile(target, data);
    return;
  }
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  track(temporary);
  try {
    const handle = await open(temporary, 'wx', existing === undefined ? 0o666 : existing.mode & 0o777);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    untrack(temporary);
  }
}
