import { mix64 } from '../index.js';

/**
 * TypeScript references of the built-in kernels, written from the semantics documented on
 * `BuiltinKernels`, so the kit compares every driver's output bit for bit.
 */

/** `fill`: the 32-bit little-endian `value` repeated over `bytes`; a short tail gets its first bytes. */
export function fillReference(bytes: number, value: number): Uint8Array {
  const pattern = [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
  const result = new Uint8Array(bytes);
  for (let index = 0; index < bytes; index += 1) result[index] = pattern[index % 4] ?? 0;
  return result;
}

/** Whether `scatterWrite` chooses page `page`: `(mix64(seed ^ mix64(p)) >>> 11) < fraction * 2^53`. */
export function scatterWriteChoosesPage(page: number, fraction: number, seed: bigint): boolean {
  const mixed = mix64(BigInt.asUintN(64, seed) ^ mix64(BigInt(page)));
  return Number(mixed >> 11n) < fraction * 2 ** 53;
}

/** The XOR of the whole little-endian 64-bit words of `source`. */
export function xorOfWords(source: Uint8Array): bigint {
  const view = new DataView(source.buffer, source.byteOffset, source.byteLength);
  let digest = 0n;
  for (let offset = 0; offset + 8 <= source.byteLength; offset += 8) digest ^= view.getBigUint64(offset, true);
  return digest;
}

/**
 * `scatterWrite` applied to a copy of `buffer`: every whole 64-bit word i of a chosen page becomes
 * `w * 0x5851F42D4C957F2D + (digest ^ seed ^ i)` (mod 2^64).
 */
export function scatterWriteReference(buffer: Uint8Array, pageBytes: number, fraction: number, seed: bigint, source: Uint8Array): Uint8Array {
  const result = buffer.slice();
  const view = new DataView(result.buffer);
  const digest = xorOfWords(source);
  const seed64 = BigInt.asUintN(64, seed);
  for (let page = 0; page * pageBytes < result.byteLength; page += 1) {
    if (!scatterWriteChoosesPage(page, fraction, seed64)) continue;
    const end = Math.min((page + 1) * pageBytes, result.byteLength);
    for (let offset = page * pageBytes; offset + 8 <= end; offset += 8) {
      const word = view.getBigUint64(offset, true);
      const index = BigInt(offset / 8);
      view.setBigUint64(offset, BigInt.asUintN(64, word * 0x5851f42d4c957f2dn + (digest ^ seed64 ^ index)), true);
    }
  }
  return result;
}

/**
 * `triad`: float32 `a[i] = b[i] + scalar * c[i]`, each operation rounded to float32 (double
 * rounding through float64 is exact for one float32 + or *).
 */
export function triadReference(b: Float32Array, c: Float32Array, scalar: number): Float32Array {
  const scalar32 = Math.fround(scalar);
  const result = new Float32Array(b.length);
  for (let index = 0; index < b.length; index += 1) {
    result[index] = Math.fround((b[index] ?? 0) + Math.fround(scalar32 * (c[index] ?? 0)));
  }
  return result;
}

/** `stencil`: float32 `x[i] = ((x[i-1] + x[i]) + x[i+1]) / 3` from the old values, ends unchanged. */
export function stencilReference(values: Float32Array): Float32Array {
  const result = values.slice();
  for (let index = 1; index < values.length - 1; index += 1) {
    const left = values[index - 1] ?? 0;
    const middle = values[index] ?? 0;
    const right = values[index + 1] ?? 0;
    result[index] = Math.fround(Math.fround(Math.fround(left + middle) + right) / 3);
  }
  return result;
}

/** The exact sum of float32 values (float64 accumulation with Neumaier compensation). */
export function exactSum(values: Float32Array): number {
  let sum = 0;
  let compensation = 0;
  for (const value of values) {
    const next = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - next + value : value - next + sum;
    sum = next;
  }
  return sum + compensation;
}
