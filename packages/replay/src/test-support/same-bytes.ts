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
    if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(Buffer.from(other.buffer, other.byteOffset, other.byteLength))) return;
    const first = bytes.findIndex((byte, offset) => byte !== other[offset]);
    expect.fail(`${what} #${index}: first differing byte at offset ${first} (got ${bytes[first]}, expected ${other[first]})`);
  });
}
