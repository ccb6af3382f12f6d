import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkBlobLength, readVerifiedBlob } from './capture-blob.js';
import type { CaptureFolder, CaptureLaunch, CaptureManifest, DamagedCaptureLaunch } from './capture-folder-types.js';
import { captureJsonNestingProblem } from './capture-json-nesting.js';
import { parseLaunchRecord } from './capture-launch-record.js';
import { captureFolderOf } from './capture-processes.js';
import { captureReadLimits } from './capture-read-limits.js';
import { CaptureFormatError } from './errors/capture-format-error.js';
import { nativeMessage } from './errors/native-message.js';
import { readRegularFile } from './file-input/read-regular-file.js';
import { moduleParameterLayouts, parameterBufferProblem, type KernelParameterLayout } from './kernel-parameter-layout.js';
import { jsonFieldProblemText } from './json-schema-problem.js';
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
  const read = await readRegularFile(join(directory, 'manifest.json'), { maxBytes: captureReadLimits.manifestBytes });
  if ('problem' in read) throw formatError('manifest.json', `${directory} holds no readable manifest.json (it ${read.problem})`, 'Pass the folder that `kreplay capture -o` wrote');
  const text = read.bytes.toString('utf8');
  const nesting = captureJsonNestingProblem(text);
  if (nesting) throw formatError('manifest.json', `${directory}/manifest.json ${nesting}`, 'The capture is damaged; capture the program again');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw formatError('manifest.json', `${directory}/manifest.json is not valid JSON (${(error as Error).message})`, 'The capture is damaged; capture the program again', undefined, error);
  }
  const header = value as { readonly format?: unknown; readonly formatVersion?: unknown } | null;
  const version = header?.formatVersion;
  // A version that is no integer is damage, which the schema names.
  if (typeof version === 'number' && Number.isSafeInteger(version) && header?.format === 'kreplay-capture' && version > NEWEST_VERSION) {
    throw formatError('manifest.json', `${directory}/manifest.json declares format version ${version}, newer than this reader's (${NEWEST_VERSION})`, 'Upgrade @kreplay/native', 'formatVersion');
  }
  const problem = captureJsonProblem('manifest', header?.formatVersion === 1 ? 1 : NEWEST_VERSION, value);
  if (problem) {
    throw formatError('manifest.json', `${directory}/manifest.json: ${jsonFieldProblemText(problem, 'the manifest')}`, 'Pass a folder written by `kreplay capture`, or capture the program again', problem.field);
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

/** What is wrong with a blob, or null; with verification, a module's kernels' parameter layouts too. */
interface BlobCheck {
  readonly problem: string | null;
  readonly layouts?: ReadonlyMap<string, KernelParameterLayout>;
}

/** Checks each blob once: its length, or with `verify` its content (and what a module declares). */
function blobChecker(directory: string, verify: boolean): (id: string, module: boolean) => Promise<BlobCheck> {
  const results = new Map<string, Promise<BlobCheck>>();
  return (id, module) => {
    let result = results.get(id);
    if (!result) {
      result = verify
        ? readVerifiedBlob(directory, id).then((read) =>
            'problem' in read ? { problem: read.problem } : module ? { problem: null, layouts: moduleParameterLayouts(read.bytes) } : { problem: null },
          )
        : checkBlobLength(directory, id).then((problem) => ({ problem }));
      results.set(id, result);
    }
    return result;
  };
}

/** What is wrong with a launch whose record is well formed: a damaged blob, or a parameter buffer shorter than its module declares. */
async function launchProblem(launch: CaptureLaunch, checkBlob: ReturnType<typeof blobChecker>): Promise<{ readonly field: string; readonly reason: string } | null> {
  const blobs = [{ id: launch.module, field: 'module' }];
  for (const [position, range] of launch.memory.entries()) {
    for (const [page, id] of range.pagesBefore.entries()) blobs.push({ id, field: `memory[${position}].pagesBefore[${page}]` });
  }
  let layouts: ReadonlyMap<string, KernelParameterLayout> | undefined;
  for (const [index, blob] of blobs.entries()) {
    const check = await checkBlob(blob.id, index === 0);
    if (check.problem) return { field: blob.field, reason: `${launch.file}: ${blob.field} names a damaged blob: ${check.problem}` };
    if (index === 0) layouts = check.layouts;
  }
  const layout = layouts?.get(launch.function);
  const short = layout && parameterBufferProblem(launch.function, launch.parameterBuffer.length, layout);
  return short ? { field: 'parameters.buffer', reason: `${launch.file}: parameters.buffer ${short}` } : null;
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
 * the schema, naming a missing, truncated or altered blob, a parameter buffer shorter than its
 * module declares for the kernel) is listed in `damaged` with the file and field at fault.
 * Temporary files of a writer that stopped mid-launch are listed in `incomplete`. Only regular
 * files are read, each up to a size (a blob's is in its id): a link, a directory, a FIFO or a
 * device where a file should be, a file too large, or JSON nested deeper than the format, is
 * damage, found without blocking or reading it.
 * A folder that processes captured into (`processes/<pid>/`, FORMAT.md) is read as its one
 * process's capture (the result's `directory` names it); one with several is refused.
 * @param folder the capture folder, or the folder the processes of one program captured into.
 * @throws {CaptureFormatError} when the folder has no manifest that is a regular file of at most
 *   16 MiB, or the manifest is not valid JSON, nests deeper than the format, breaks the schema
 *   (named by field) or is of a newer format version; or when several processes captured into it
 *   (the message names each one's capture, which can be read instead).
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
    const sequence = Number(match[1]);
    const read = await readRegularFile(join(directory, file), { maxBytes: captureReadLimits.recordBytes });
    if ('problem' in read) {
      damaged.push({ file, sequence, field: null, reason: `${file} ${read.problem}` });
      continue;
    }
    const parsed = parseLaunchRecord(file, sequence, read.bytes.toString('utf8'), manifest.formatVersion);
    if ('damaged' in parsed) {
      damaged.push(parsed.damaged);
      continue;
    }
    const { launch } = parsed;
    const problem = await launchProblem(launch, checkBlob);
    if (problem) damaged.push({ file, sequence: launch.sequence, field: problem.field, reason: problem.reason });
    else launches.push(launch);
  }
  return deepFreeze({ directory, manifest, launches, damaged, incomplete: await temporaryFiles(directory, names) });
}
