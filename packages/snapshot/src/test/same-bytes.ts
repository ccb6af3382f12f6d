import { expect } from 'vitest';

/**
 * Asserts byte arrays (or lists of them) are equal, reporting the first differing offset; much
 * faster than a deep `toEqual` on large typed arrays.
 */
export function expectSameBytes(actual: readonly Uint8Array[] | Uint8Array, expected: readonly Uint8Array[] | Uint8Array, what = 'bytes'): void {
  const left = [actual].flat();
  const right = [expected].flat();
  expect(left.length, `${what}: number of arrays`).toBe(right.length);
  left.forEach((bytes, index) => {
    const other = right[index]!;
    expect(bytes.byteLength, `${what} #${index}: length`).toBe(other.byteLength);
    if (sameBytes(bytes, other)) return;
    const first = bytes.findIndex((byte, offset) => byte !== other[offset]);
    expect.fail(`${what} #${index}: first differing byte at offset ${first} (got ${bytes[first]}, expected ${other[first]})`);
  });
}

/** True when two byte arrays hold the same bytes. */
export function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(Buffer.from(right.buffer, right.byteOffset, right.byteLength));
}
