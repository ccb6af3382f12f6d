/**
 * The page hash of every driver, in TypeScript with BigInt: the reference the native hashing is
 * tested against (see API.md, "Page hash").
 */

import { argumentError, describeValue } from '../errors/validate.js';

const WORD_MULTIPLIER = 0x9e3779b97f4a7c15n;
const LENGTH_MULTIPLIER = 0xd6e8feb86659fd93n;

/**
 * The splitmix64 finalizer: a bijection of 64-bit words (the input is taken mod 2^64).
 * @throws {ArgumentError} when `x` is not a bigint.
 */
export function mix64(x: bigint): bigint {
  if (typeof x !== 'bigint') {
    throw argumentError('page-hash', 'x', `mix64 got ${describeValue(x)}, not a bigint`, 'Pass a bigint, e.g. mix64(42n)');
  }
  let value = BigInt.asUintN(64, x);
  value ^= value >> 30n;
  value = BigInt.asUintN(64, value * 0xbf58476d1ce4e5b9n);
  value ^= value >> 27n;
  value = BigInt.asUintN(64, value * 0x94d049bb133111ebn);
  value ^= value >> 31n;
  return value;
}

/**
 * The 64-bit hash of one page: `mix64(Σ mix64(w_i + (i + 1) K) ^ n K')` over its little-endian
 * 64-bit words, the last one zero-padded.
 * @throws {ArgumentError} when `bytes` is not a Uint8Array.
 */
export function pageHash(bytes: Uint8Array): bigint {
  if (!(bytes instanceof Uint8Array)) {
    throw argumentError('page-hash', 'bytes', `pageHash got ${describeValue(bytes)}, not a Uint8Array`, 'Pass the bytes of one page');
  }
  const length = bytes.byteLength;
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  let sum = 0n;
  let index = 0n;
  let offset = 0;
  for (; offset + 8 <= length; offset += 8) {
    index += 1n;
    sum += mix64(view.getBigUint64(offset, true) + index * WORD_MULTIPLIER);
  }
  if (offset < length) {
    let word = 0n;
    for (let lane = length - offset - 1; lane >= 0; lane -= 1) word = (word << 8n) | BigInt(bytes[offset + lane]!);
    index += 1n;
    sum += mix64(word + index * WORD_MULTIPLIER);
  }
  return mix64(BigInt.asUintN(64, sum) ^ BigInt.asUintN(64, BigInt(length) * LENGTH_MULTIPLIER));
}
