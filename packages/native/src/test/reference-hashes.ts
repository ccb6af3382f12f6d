import { pageHash } from '../index.js';

/**
 * The page hashes of several ranges' bytes, pages numbered per range in order, each range
 * contributing ceil(bytes / pageBytes) pages (the package's TypeScript `pageHash`).
 */
export function referencePageHashes(ranges: readonly Uint8Array[], pageBytes: number): BigUint64Array {
  const hashes: bigint[] = [];
  for (const range of ranges) {
    for (let start = 0; start < range.byteLength; start += pageBytes) {
      hashes.push(pageHash(range.subarray(start, Math.min(start + pageBytes, range.byteLength))));
    }
  }
  return BigUint64Array.from(hashes);
}

const mask64 = (1n << 64n) - 1n;

/** The documented mix64, written out again so the kit can check the package's own reference. */
export function specificationMix64(value: bigint): bigint {
  let x = value & mask64;
  x ^= x >> 30n;
  x = (x * 0xbf58476d1ce4e5b9n) & mask64;
  x ^= x >> 27n;
  x = (x * 0x94d049bb133111ebn) & mask64;
  x ^= x >> 31n;
  return x;
}

/** The documented page hash, written out again (words little-endian, the last zero-padded). */
export function specificationPageHash(page: Uint8Array): bigint {
  const padded = new Uint8Array(Math.ceil(page.byteLength / 8) * 8);
  padded.set(page);
  const view = new DataView(padded.buffer);
  let sum = 0n;
  for (let word = 0; word < padded.byteLength / 8; word += 1) {
    sum = (sum + specificationMix64(view.getBigUint64(word * 8, true) + BigInt(word + 1) * 0x9e3779b97f4a7c15n)) & mask64;
  }
  return specificationMix64(sum ^ (BigInt(page.byteLength) * 0xd6e8feb86659fd93n));
}
