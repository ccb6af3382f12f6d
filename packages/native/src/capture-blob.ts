import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

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

/** A blob's bytes, or what is wrong with it (missing, truncated, another content). @internal */
export async function readVerifiedBlob(directory: string, id: string): Promise<{ readonly bytes: Uint8Array } | { readonly problem: string }> {
  const path = captureBlobPath(id);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(directory, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? `${path} is missing` : `${path} cannot be read (${(error as Error).message})` };
  }
  const length = Number(id.slice(id.indexOf('-') + 1));
  if (bytes.length !== length) return { problem: `${path} is ${bytes.length} bytes, not ${length} (${bytes.length < length ? 'truncated' : 'too long'})` };
  const actual = captureBlobId(bytes);
  if (actual !== id) return { problem: `${path} holds other content (its SHA-256 names it ${actual})` };
  return { bytes };
}
