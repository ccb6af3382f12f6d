import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, realpath, rm, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
 * The file `path` names once symbolic links are followed: its real path, or for a file that does not
 * exist yet, the real path of its directory and its name.
 */
async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  const real = await realpath(absolute).catch(() => undefined);
  if (real !== undefined) return real;
  const directory = await realpath(dirname(absolute)).catch(() => undefined);
  return directory === undefined ? absolute : join(directory, basename(absolute));
}

/** A path a command was given, and the option or argument that named it (`--out`, `<report>`). */
interface NamedPath {
  readonly option: string;
  readonly path: string;
  readonly input: boolean;
}

/** `--out and --html both name r.json`, or with two spellings of one file, both and the file. */
function describeSameFile(first: NamedPath, second: NamedPath, real: string): string {
  if (first.path === second.path) return `${first.option} and ${second.option} both name ${first.path}`;
  return `${first.option} ${first.path} and ${second.option} ${second.path} both name ${real}`;
}

/**
 * Checks every output file a command was given (options left undefined are skipped), in order:
 * that it is none of the command's `inputs` and no earlier output, once symbolic links are followed
 * (a write through a link replaces the file it points to), and that it can be written.
 * @param inputs the files the command reads, by the option or argument that names them (`<report>`).
 * @throws UsageError naming both options and the path when an output is an input or another output,
 * and for the first path that cannot be written.
 */
export async function checkOutputPaths(
  command: string,
  paths: Readonly<Record<string, string | undefined>>,
  inputs: Readonly<Record<string, string | readonly string[] | undefined>> = {},
): Promise<void> {
  const named = new Map<string, NamedPath>();
  for (const [option, given] of Object.entries(inputs)) {
    for (const path of typeof given === 'string' ? [given] : (given ?? [])) {
      const real = await realPathOf(path);
      if (!named.has(real)) named.set(real, { option, path, input: true });
    }
  }
  for (const [option, path] of Object.entries(paths)) {
    if (path === undefined) continue;
    const output = { option, path, input: false };
    const real = await realPathOf(path);
    const earlier = named.get(real);
    if (earlier?.input) throw new UsageError(command, describeSameFile(output, earlier, real), 'Give the output a file of its own, so that it does not replace the input');
    if (earlier !== undefined) throw new UsageError(command, describeSameFile(earlier, output, real), 'Give each output its own file');
    named.set(real, output);
    await checkOutputPath(path, { kind: 'file', command, option });
  }
}
