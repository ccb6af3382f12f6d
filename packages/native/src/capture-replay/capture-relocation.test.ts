import { describe, expect, it } from 'vitest';
import { relocateParameterWords, relocatedAddress } from './capture-relocation.js';

const relocations = [
  { from: 0x7f0000000000, to: 0x7e0000200000, bytes: 0x10000 },
  { from: 0x7f0000400000, to: 0x7e0000800000, bytes: 0x1000 },
];

function words(...values: bigint[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 8 + 4));
  values.forEach((value, index) => view.setBigUint64(index * 8, value, true));
  view.setUint32(values.length * 8, 0x7f000000, true); // a trailing 4-byte scalar is never a word
  return new Uint8Array(view.buffer);
}

describe('capture relocation', () => {
  it('moves addresses inside a relocated range by its offset, and leaves the others', () => {
    expect(relocatedAddress(relocations, 0x7f0000000010)).toBe(0x7e0000200010);
    expect(relocatedAddress(relocations, 0x7f0000400fff)).toBe(0x7e0000800fff);
    expect(relocatedAddress(relocations, 0x7f0000401000)).toBe(0x7f0000401000); // one past the end
    expect(relocatedAddress(relocations, 0x1234)).toBe(0x1234);
  });

  it('rewrites the aligned words that point into moved ranges, not scalars or other pointers, in a copy', () => {
    const buffer = words(0x7f0000000100n, 42n, 0x7f0000400000n, 0n, 0x7f0000010000n);
    const { buffer: moved, rewritten } = relocateParameterWords(buffer, relocations);
    expect(rewritten).toBe(2);
    const view = new DataView(moved.buffer);
    expect(view.getBigUint64(0, true)).toBe(0x7e0000200100n);
    expect(view.getBigUint64(8, true)).toBe(42n);
    expect(view.getBigUint64(16, true)).toBe(0x7e0000800000n);
    expect(view.getBigUint64(32, true)).toBe(0x7f0000010000n); // just past the first range
    expect(view.getUint32(40, true)).toBe(0x7f000000);
    expect(new DataView(buffer.buffer).getBigUint64(0, true)).toBe(0x7f0000000100n); // the input is untouched
  });
});
