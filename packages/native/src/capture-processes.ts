import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CaptureFormatError } from './errors/capture-format-error.js';
import { nativeMessage } from './errors/native-message.js';
import { readRegularFile } from './file-input/read-regular-file.js';

/** One process's capture in a folder that processes of a program captured into (FORMAT.md, "Processes"). */
export interface CaptureProcess {
  /** The captured process's id. */
  readonly pid: number;
  /** Its capture folder: `<dir>/processes/<pid>` (`<pid>-<n>` for a later process given the same pid). */
  readonly directory: string;
}

const PROCESS = /^(\d+)(?:-(\d+))?$/;

/**
 * The processes whose captures a folder holds (`<dir>/processes/<pid>/`), by pid, a later process
 * given the same pid after the earlier one. A folder written before sub-captures (its capture at the
 * top) and a folder that is no capture hold none.
 * Never throws: a folder that cannot be read holds no processes.
 * @param directory the folder `kreplay capture -o` named.
 */
export async function listCaptureProcesses(directory: string): Promise<CaptureProcess[]> {
  const entries = await readdir(join(directory, 'processes'), { withFileTypes: true }).catch(() => []);
  const found: (CaptureProcess & { readonly again: number })[] = [];
  for (const entry of entries) {
    const match = entry.isDirectory() ? PROCESS.exec(entry.name) : null;
    if (match) found.push({ pid: Number(match[1]), again: Number(match[2] ?? 0), directory: join(directory, 'processes', entry.name) });
  }
  return found.sort((a, b) => a.pid - b.pid || a.again - b.again).map(({ pid, directory: folder }) => ({ pid, directory: folder }));
}

/** The most bytes of a process's manifest read to learn whether it captured anything. */
const MANIFEST_BYTES = 16 * 2 ** 20;

/**
 * Whether a process's capture finished with nothing in it: its manifest says `complete` with no
 * selection error, and its `launches/` folder holds no record. A process that stopped early, or whose
 * folder cannot be read, is not empty: it is never left out silently.
 */
async function capturedNothing(directory: string): Promise<boolean> {
  const manifest = await readRegularFile(join(directory, 'manifest.json'), { maxBytes: MANIFEST_BYTES });
  if (!('bytes' in manifest)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifest.bytes.toString('utf8'));
  } catch {
    return false;
  }
  const fields = parsed as { complete?: unknown; selectionError?: unknown } | null;
  if (fields === null || typeof fields !== 'object' || fields.complete !== true || fields.selectionError != null) return false;
  const records = await readdir(join(directory, 'launches')).catch(() => null);
  return records !== null && records.length === 0;
}

/**
 * The capture folder to read for `directory`: itself when it holds a manifest (or holds no
 * processes' captures either, so that the reader says what is missing); its one process's capture
 * when one process captured into it, or when every other process finished its capture with no
 * launch in it (as a program's helper processes that start CUDA and launch nothing do).
 * @throws {CaptureFormatError} when several processes captured launches (or may have), naming each capture.
 * @internal
 */
export async function captureFolderOf(directory: string): Promise<string> {
  const hasManifest = await access(join(directory, 'manifest.json')).then(
    () => true,
    () => false,
  );
  if (hasManifest) return directory;
  const processes = await listCaptureProcesses(directory);
  if (processes.length === 0) return directory;
  if (processes.length === 1) return processes[0]!.directory;
  const empty = await Promise.all(processes.map((process) => capturedNothing(process.directory)));
  const holding = processes.filter((_, index) => !empty[index]);
  if (holding.length === 1) return holding[0]!.directory;
  const folders = processes.map((process) => process.directory);
  throw new CaptureFormatError({
    packageName: 'native',
    component: 'capture',
    file: 'processes',
    message: nativeMessage(
      'capture',
      `${directory} holds the captures of ${processes.length} processes: ${folders.join(', ')}, each a capture folder of its own`,
      `Pass one of them, e.g. ${folders[0]}`,
    ),
  });
}
