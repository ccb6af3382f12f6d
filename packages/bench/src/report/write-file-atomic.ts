import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Temporary files being written; removed if the process exits, or a signal ends it, before they are renamed. */
const unfinished = new Set<string>();

/** Signals that end a process nobody else listens for them in. */
const endingSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removeUnfinished(): void {
  for (const path of unfinished) rmSync(path, { force: true });
}

/**
 * A signal that ends the process, as nobody else listens for it: the temporary files go, then the
 * signal ends the process as it would have. A signal someone else handles is theirs; if they exit,
 * the 'exit' listener removes the files.
 */
function onEndingSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  removeUnfinished();
  stopListening();
  process.kill(process.pid, signal);
}

function stopListening(): void {
  process.off('exit', removeUnfinished);
  for (const signal of endingSignals) process.off(signal, onEndingSignal);
}

function track(path: string): void {
  if (unfinished.size === 0) {
    process.on('exit', removeUnfinished);
    for (const signal of endingSignals) process.on(signal, onEndingSignal);
  }
  unfinished.add(path);
}

function untrack(path: string): void {
  unfinished.delete(path);
  if (unfinished.size === 0) stopListening();
}

/** Whether a process with this id runs (one of another user, which cannot be signalled, does). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files that writers of `target` left beside it when they were killed
 * (`.<name>.<pid>.<12 hex>.tmp` of a process that no longer runs); never one of a running process.
 */
function removeStaleTemporaries(target: string): void {
  const directory = dirname(target);
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined || Number(pid) === process.pid || Number(pid) <= 0 || isRunning(Number(pid))) continue;
    rmSync(join(directory, name), { force: true });
  }
}

/** Where an atomic write goes: the file (links followed), written in place, or through a temporary file beside it. */
type AtomicWritePlan = { readonly target: string; readonly inPlace: true } | { readonly target: string; readonly inPlace: false; readonly temporary: string; readonly mode: number };

function planAtomicWrite(path: string): AtomicWritePlan {
  let target = resolve(path);
  try {
    target = realpathSync(target);
  } catch {
    // A file that does not exist yet.
  }
  const existing = statSync(target, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isFile() && !existing.isDirectory()) return { target, inPlace: true };
  removeStaleTemporaries(target);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  return { target, inPlace: false, temporary, mode: existing === undefined ? 0o666 : existing.mode & 0o777 };
}

/**
 * Writes a file so that it is either the old file or the whole new one, never a part: the data
 * goes to a temporary file in the same directory, is flushed, then renamed over `path` (a symbolic
 * link is followed, so the file it points to is replaced). If the process exits before the rename
 * (`process.exit`, or a SIGINT, SIGTERM or SIGHUP that nobody else listens for), the temporary file
 * is removed and `path` keeps what it held. Temporary files of `path` that writers which no longer
 * run left behind are removed first. A `path` that exists and is neither a file nor a directory
 * (a pipe, `/dev/stdout`) is written in place, as it cannot be replaced.
 * @throws the file system's error (with its `code`, e.g. `EISDIR`, `ENOENT`, `EACCES`) when the
 * file cannot be written; `path` is then left as it was and no temporary file remains.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const plan = planAtomicWrite(path);
  if (plan.inPlace) {
    await writeFile(plan.target, data);
    return;
  }
  track(plan.temporary);
  try {
    const handle = await open(plan.temporary, 'wx', plan.mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(plan.temporary, plan.target);
  } catch (error) {
    await rm(plan.temporary, { force: true });
    throw error;
  } finally {
    untrack(plan.temporary);
  }
}

/**
 * {@link writeFileAtomic}, synchronously: for a process that must save a file and exit at once
 * (a second Ctrl-C).
 * @throws the file system's error when the file cannot be written; `path` is then left as it was
 * and no temporary file remains.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const plan = planAtomicWrite(path);
  if (plan.inPlace) {
    writeFileSync(plan.target, data);
    return;
  }
  try {
    const descriptor = openSync(plan.temporary, 'wx', plan.mode);
    try {
      writeFileSync(descriptor, data);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(plan.temporary, plan.target);
  } catch (error) {
    rmSync(plan.temporary, { force: true });
    throw error;
  }
}
