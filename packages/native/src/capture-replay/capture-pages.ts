import { captureBlobPath, readCaptureBlob } from '../capture/capture-blob.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { nativeMessage } from '../errors/native-message.js';

/** At most this many bytes go to the device in one write. */
export const WRITE_BYTES = 64 * 2 ** 20;

/** One page of a placed range: where it goes and the blob it holds before the launch. */
export interface CapturePage {
  readonly address: number;
  readonly bytes: number;
  readonly blob: string;
  /** Where the page's range starts: pages of different ranges are never written together (they may be separate allocations side by side). */
  readonly range: number;
}

/** The pages of a range placed at `address`, `pageBytes` each (the last one possibly short). */
export function pagesOf(address: number, bytes: number, pageBytes: number, blobs: readonly string[]): CapturePage[] {
  return blobs.map((blob, page) => ({ address: address + page * pageBytes, bytes: Math.min(pageBytes, bytes - page * pageBytes), blob, range: address }));
}

/** Consecutive pages of one range (each starting where the one before ends) in runs of at most `limitBytes`. */
export function contiguousRuns(pages: readonly CapturePage[], limitBytes: number): CapturePage[][] {
  const sorted = [...pages].sort((a, b) => a.address - b.address);
  const runs: CapturePage[][] = [];
  let run: CapturePage[] = [];
  let runBytes = 0;
  for (const page of sorted) {
    const last = run.at(-1);
    if (last !== undefined && (last.range !== page.range || last.address + last.bytes !== page.address || runBytes + page.bytes > limitBytes)) {
      runs.push(run);
      run = [];
      runBytes = 0;
    }
    run.push(page);
    runBytes += page.bytes;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The bytes of a run of pages, read from their blobs (each read once per call).
 * @throws {CaptureFormatError} (as a rejection) when a blob is missing or of another length.
 */
export async function runBytes(directory: string, run: readonly CapturePage[]): Promise<Uint8Array> {
  const total = run.reduce((sum, page) => sum + page.bytes, 0);
  const bytes = new Uint8Array(total);
  const reads = new Map<string, Promise<Uint8Array>>();
  let offset = 0;
  for (const page of run) {
    let read = reads.get(page.blob);
    if (read === undefined) {
      read = readBlob(directory, page.blob);
      reads.set(page.blob, read);
    }
    const blob = await read;
    if (blob.length !== page.bytes) throw blobError(directory, page.blob, `${captureBlobPath(page.blob)} is ${blob.length} bytes, not the ${page.bytes} of its page`);
    bytes.set(blob, offset);
    offset += page.bytes;
  }
  return bytes;
}

/**
 * A blob's bytes, from a regular file of at most the length its id declares.
 * @throws {CaptureFormatError} (as a rejection) when it cannot be read.
 */
export async function readBlob(directory: string, id: string): Promise<Uint8Array> {
  const read = await readCaptureBlob(directory, id);
  if ('problem' in read) throw blobError(directory, id, read.problem);
  return read.bytes;
}

/** `problem` names the blob by its path in the folder. */
function blobError(directory: string, id: string, problem: string): CaptureFormatError {
  const file = captureBlobPath(id);
  return new CaptureFormatError({
    packageName: 'native',
    component: 'capture',
    file,
    message: nativeMessage('capture', `${directory}/${problem}; it changed after the capture was read`, 'Capture the program again, or restore the folder'),
  });
}
