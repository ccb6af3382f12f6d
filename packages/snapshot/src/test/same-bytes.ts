import { expect } from 'vitest';

/**
 * Asserts two lists of byte arrays are equal, fast (deep equality of large typed arrays is slow),
 * naming the first differing array and offset when they are not.
 */
export function expectSameBytes(actual: readonly Uint8Array[], expected: readonly Uint8Array[], what: string): void {
  expect(actual.length, `${what}: number of ranges`).toBe(expected.length);
  actual.forEach((bytes, index) => {
    const other = expected[index]!;
    if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(other)) return;
    const offset = bytes.findIndex((value, position) => value !== other[position]);
    expect.fail(`${what}: range ${index} differs first at byte ${offset} (got ${bytes[offset]}, expected ${other[offset]})`);
  });
}

/** True when two byte arrays hold the same bytes. */
export function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(right);
}
