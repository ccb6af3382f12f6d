import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, realpath, rm, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** What {@link checkOutputPath} checks a path for. */
export interface OutputPathOptions {
  /** A file to (re)write, or a directory to write into (created when missing). */
  readonly kind: 'file' | 'directory';
  /** The command asking, for the message: `bench`. */
  readonly command: string;
  /** The option naming the path, for the message: `--out`. */
  readonly option: string;
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether a file can be created in `directory`: creates and removes a probe (permissions, read-only mounts, quotas all tell). */
async function canCreateIn(directory: string): Promise<string | null> {
  const probe = join(directory, `.kreplay-write-check.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    await (await open(probe, 'wx')).close();
    await rm(probe, { force: true });
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/**
 * Checks, before any work, that `path` can be written as `options.kind`: a file path must not be a
 * directory, its directory must exist and accept new files (writes are atomic: a temporary file
 * there, then a rename), and an existing file must be writable; a directory path must be a writable
 * directory, or missing with a writable parent.
 * @throws UsageError naming the option, the path and what to do, when it cannot be written.
 */
export async function checkOutputPath(path: string, options: OutputPathOptions): Promise<void> {
  const fail = (what: string, fix: string) => new UsageError(options.command, `${options.option} ${path}: ${what}`, fix);
  if (path.trim() === '') throw fail('is empty', 'Pass a path');
  // A symbolic link is followed, as the atomic write replaces the file it points to.
  const target = await realpath(path).catch(() => resolve(path));
  const existing = await statOrUndefined(target);
  if (options.kind === 'file' && existing?.isDirectory()) {
    throw fail('is a directory', `Pass a path to a file, e.g. ${join(path, options.option === '--html' ? 'report.html' : 'report.json')}`);
  }
  if (options.kind === 'directory' && existing !== undefined) {
    if (!existing.isDirectory()) throw fail('exists and is not a directory', 'Pass a directory, or a path that does not exist yet');
    const code = await canCreateIn(target);
    if (code !== null) throw fail(`cannot be written into (${code})`, 'Choose a writable directory');
    return;
  }
  if (existing !== undefined && !existing.isFile()) {
    // A pipe or a device (/dev/stdout) is written in place.
    await access(target, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw fail(`cannot be written (${error.code ?? error.message})`, 'Choose another path');
    });
    return;
  }
  const parent = dirname(target);
  const parentStats = await statOrUndefined(parent);
  if (parentStats === undefined) throw fail(`the directory ${dirname(path)} does not exist`, 'Create it first, or choose another path');
  if (!parentStats.isDirectory()) throw fail(`${dirname(path)} is not a directory`, 'Choose a path inside a directory');
  const code = await canCreateIn(parent);
  if (code !== null) throw fail(`files cannot be created in ${dirname(path)} (${code})`, 'Choose a path in a writable directory');
  if (existing !== undefined) {
    await access(target, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw fail(`exists and is not writable (${error.code ?? error.message})`, 'Make it writable, or choose another path');
    });
  }
}

/**
 * Checks every output file a command was given (options left undefined are skipped), in order,
 * and that no two options name the same file.
 * @throws UsageError for the first path that cannot be written, or a file named twice.
 */
export async function checkOutputPaths(command: string, paths: Readonly<Record<string, string | undefined>>): Promise<void> {
  const seen = new Map<string, string>();
  for (const [option, path] of Object.entries(paths)) {
    if (path === undefined) continue;
    const earlier = seen.get(resolve(path));
    if (earlier !== undefined) throw new UsageError(command, `${earlier} and ${option} both name ${path}`, 'Give each output its own file');
    seen.set(resolve(path), option);
    await checkOutputPath(path, { kind: 'file', command, option });
  }
}
