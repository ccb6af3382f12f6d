import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { captureBlobPath, readVerifiedBlob } from './capture-blob.js';
import type { CaptureFolder, CaptureLaunch, CaptureManifest, DamagedCaptureLaunch } from './capture-folder-types.js';
import { parseLaunchRecord } from './capture-launch-record.js';
import { captureFolderOf } from './capture-processes.js';
import { CaptureFormatError } from './errors/capture-format-error.js';
import { nativeMessage } from './errors/native-message.js';
import { captureJsonProblem } from './validate-capture-json.js';

/** Options of {@link readCaptureFolder}. */
export interface ReadCaptureFolderOptions {
  /**
   * Read every blob a launch names and check its SHA-256 (default true). With false only each blob's
   * presence and length are checked, which is much faster on a large capture.
   */
  readonly verifyBlobs?: boolean;
}

const RECORD = /^(\d{8})\.json$/;
/** The newest format version this reader reads (it reads every older one too). */
const NEWEST_VERSION = 2;
const TEMPORARY = /^\.tmp-/;

function formatError(file: string, what: string, fix: string, field?: string, cause?: unknown): CaptureFormatError {
  return new CaptureFormatError({ packageName: 'native', component: 'capture', file, field, cause, message: nativeMessage('capture', what, fix) });
}

async function readManifest(directory: string): Promise<CaptureManifest> {
  let text: string;
  try {
    text = await readFile(join(directory, 'manifest.json'), 'utf8');
  } catch (error) {
    throw formatError('manifest.json', `${directory} holds no readable manifest.json (${(error as Error).message})`, 'Pass the folder that `kreplay capture -o` wrote', undefined, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw formatError('manifest.json', `${directory}/manifest.json is not valid JSON (${(error as Error).message})`, 'The capture is damaged; capture the program again', undefined, error);
  }
  const header = value as { readonly format?: unknown; readonly formatVersion?: unknown } | null;
  if (typeof header?.formatVersion === 'number' && header.format === 'kreplay-capture' && header.formatVersion > NEWEST_VERSION) {
    throw formatError('manifest.json', `${directory} is a capture of format version ${header.formatVersion}, newer than this reader's (${NEWEST_VERSION})`, 'Upgrade @kreplay/native', 'formatVersion');
  }
  const problem = captureJsonProblem('manifest', header?.formatVersion === 1 ? 1 : NEWEST_VERSION, value);
  if (problem) {
    throw formatError('manifest.json', `${directory}/manifest.json: ${problem.field || 'the manifest'} ${problem.problem}`, 'Pass a folder written by `kreplay capture`, or capture the program again', problem.field);
  }
  return value as CaptureManifest;
}

/** Temporary files left by a writer that stopped, relative to the folder. */
async function temporaryFiles(directory: string, names: readonly string[]): Promise<string[]> {
  const found = names.filter((name) => TEMPORARY.test(name)).map((name) => `launches/${name}`);
  const blobFolders = await readdir(join(directory, 'blobs')).catch(() => [] as string[]);
  for (const folder of blobFolders.sort()) {
    const inside = await readdir(join(directory, 'blobs', folder)).catch(() => [] as string[]);
    found.push(...inside.filter((name) => TEMPORARY.test(name)).map((name) => `blobs/${folder}/${name}`));
  }
  return found.sort();
}

function blobChecker(directory: string, verify: boolean): (id: string) => Promise<string | null> {
  const results = new Map<string, Promise<string | null>>();
  return (id) => {
    let result = results.get(id);
    if (!result) {
      result = verify
        ? readVerifiedBlob(directory, id).then((read) => ('problem' in read ? read.problem : null))
        : stat(join(directory, captureBlobPath(id))).then(
            (stats) => (stats.size === Number(id.slice(id.indexOf('-') + 1)) ? null : `${captureBlobPath(id)} is ${stats.size} bytes, not ${id.slice(id.indexOf('-') + 1)}`),
            () => `${captureBlobPath(id)} is missing`,
          );
      results.set(id, result);
    }
    return result;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads a capture folder (src/capture/FORMAT.md, format version 2 or 1): its manifest, then every
 * launch record, each validated against the schema of the folder's version and checked with the
 * blobs it names. A version 1 record reads with the version 2 fields at their defaults (no stream,
 * no captured sequence, no work before, no page hashes before). A launch is returned only when
 * its record and all its blobs are intact; a record that is there but damaged (cut short, against
 * the schema, naming a missing, truncated or altered blob) is listed in `damaged` with the file and
 * field at fault. Temporary files of a writer that stopped mid-launch are listed in `incomplete`.
 * A folder that processes captured into (`processes/<pid>/`, FORMAT.md) is read as its one
 * process's capture (the result's `directory` names it); one with several is refused.
 * @param folder the capture folder, or the folder the processes of one program captured into.
 * @throws {CaptureFormatError} when the folder has no manifest, or the manifest is not valid JSON,
 *   breaks the schema (named by field) or is of a newer format version; or when several processes
 *   captured into it (the message names each one's capture, which can be read instead).
 */
export async function readCaptureFolder(folder: string, options: ReadCaptureFolderOptions = {}): Promise<CaptureFolder> {
  const directory = await captureFolderOf(folder);
  const manifest = await readManifest(directory);
  const names = (await readdir(join(directory, 'launches')).catch(() => [] as string[])).sort();
  const checkBlob = blobChecker(directory, options.verifyBlobs ?? true);
  const launches: CaptureLaunch[] = [];
  const damaged: DamagedCaptureLaunch[] = [];
  for (const name of names) {
    const match = RECORD.exec(name);
    if (!match) continue;
    const file = `launches/${name}`;
    const parsed = parseLaunchRecord(file, Number(match[1]), await readFile(join(directory, file), 'utf8'), manifest.formatVersion);
    if ('damaged' in parsed) {
      damaged.push(parsed.damaged);
      continue;
    }
    const { launch } = parsed;
    const blobs = [{ id: launch.module, field: 'module' }];
    for (const [position, range] of launch.memory.entries()) {
      for (const [page, id] of range.pagesBefore.entries()) blobs.push({ id, field: `memory[${position}].pagesBefore[${page}]` });
    }
    let problem: { readonly field: string; readonly reason: string } | null = null;
    for (const blob of blobs) {
      const reason = await checkBlob(blob.id);
      if (reason) {
        problem = { field: blob.field, reason: `${file}: ${blob.field} names a damaged blob: ${reason}` };
        break;
      }
    }
    if (problem) damaged.push({ file, sequence: launch.sequence, field: problem.field, reason: problem.reason });
    else launches.push(launch);
  }
  return deepFreeze({ directory, manifest, launches, damaged, incomplete: await temporaryFiles(directory, names) });
}
