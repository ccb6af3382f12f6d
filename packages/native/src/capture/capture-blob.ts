import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { captureReadLimits } from './capture-read-limits.js';
import { readRegularFile } from '../file-input/read-regular-file.js';

/**
 * The blob id of some bytes (FORMAT.md): the first 32 hex digits of their SHA-256, `-`, their length.
 * The capture writer names blobs the same way.
 */
export function captureBlobId(bytes: Uint8Array): string {
  return `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}-${bytes.length}`;
}

/** The path of a blob relative to its capture folder: `blobs/<first two digits>/<id>`. */
export function captureBlobPath(id: string): string {
  return `blobs/${id.slice(0, 2)}/${id}`;
}

/** The length in bytes a blob id gives its blob (its digits after the `-`). @internal */
export function captureBlobLength(id: string): number {
  return Number(id.slice(id.indexOf('-') + 1));
}

/** Why a blob's id declares more bytes than the reader takes, or null. */
function declaredLengthProblem(id: string): string | null {
  const length = captureBlobLength(id);
  return length <= captureReadLimits.blobBytes ? null : `${captureBlobPath(id)} is declared ${id.slice(id.indexOf('-') + 1)} bytes long by its id, more than the ${captureReadLimits.blobBytes} this reader takes`;
}

/**
 * A blob's bytes, read only from a regular file of at most the length its id declares (never
 * through a link, from a FIFO or a device), or what is wrong with it: missing, not a regular file,
 * longer than its id says. Its content is not checked.
 * @internal
 */
export async function readCaptureBlob(directory: string, id: string): Promise<{ readonly bytes: Uint8Array } | { readonly problem: string }> {
  const declared = declaredLengthProblem(id);
  if (declared) return { problem: declared };
  const path = captureBlobPath(id);
  const length = captureBlobLength(id);
  const read = await readRegularFile(join(directory, path), { maxBytes: length });
  if ('bytes' in read) return read;
  if (read.reason === 'too-large') return { problem: `${path} is ${read.size} bytes, not ${length} (too long)` };
  return { problem: `${path} ${read.problem}` };
}

/** A blob's bytes, or what is wrong with it (missing, not a regular file, truncated, another content). @internal */
export async function readVerifiedBlob(directory: string, id: string): Promise<{ readonly bytes: Uint8Array } | { readonly problem: string }> {
  const read = await readCaptureBlob(directory, id);
  if ('problem' in read) return read;
  const { bytes } = read;
  const path = captureBlobPath(id);
  const length = captureBlobLength(id);
  if (bytes.length !== length) return { problem: `${path} is ${bytes.length} bytes, not ${length} (${bytes.length < length ? 'truncated' : 'too long'})` };
  const actual = captureBlobId(bytes);
  if (actual !== id) return { problem: `${path} holds other content (its SHA-256 names it ${actual})` };
  return { bytes };
}

/**
 * Whether a blob is a regular file of the length its id declares, without reading it: what is
 * wrong with it, or null.
 * @internal
 */
export async function checkBlobLength(directory: string, id: string): Promise<string | null> {
  const declared = declaredLengthProblem(id);
  if (declared) return declared;
  const path = captureBlobPath(id);
  const stats = await lstat(join(directory, path)).catch(() => null);
  if (stats === null) return `${path} is missing`;
  if (!stats.isFile()) return `${path} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}`;
  return stats.size === captureBlobLength(id) ? null : `${path} is ${stats.size} bytes, not ${captureBlobLength(id)}`;
}
