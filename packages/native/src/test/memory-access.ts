import { expect } from 'vitest';
import type { Agent } from '../index.js';

/** Reads `count` little-endian uint64 values at `address`. */
export async function readUint64s(agent: Agent, address: number, count: number): Promise<BigUint64Array> {
  const bytes = await agent.read(address, count * 8);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new BigUint64Array(count);
  for (let index = 0; index < count; index += 1) values[index] = view.getBigUint64(index * 8, true);
  return values;
}

/** Reads `count` little-endian uint32 values at `address`. */
export async function readUint32s(agent: Agent, address: number, count: number): Promise<Uint32Array> {
  const bytes = await agent.read(address, count * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Uint32Array(count);
  for (let index = 0; index < count; index += 1) values[index] = view.getUint32(index * 4, true);
  return values;
}

/** Reads `count` float32 values at `address`. */
export async function readFloat32s(agent: Agent, address: number, count: number): Promise<Float32Array> {
  const bytes = await agent.read(address, count * 4);
  return new Float32Array(bytes.slice().buffer, 0, count);
}

/** Little-endian bytes of uint32 values. */
export function uint32Bytes(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setUint32(index * 4, value, true));
  return bytes;
}

/**
 * Asserts two byte arrays are equal, reporting the first differing offset instead of a huge diff.
 */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  expect(actual.byteLength, `${what}: length`).toBe(expected.byteLength);
  const first = firstDifference(actual, expected);
  expect(first, first < 0 ? what : `${what}: first differing byte at offset ${first} (got ${actual[first]}, expected ${expected[first]})`).toBe(-1);
}

/** The first offset where the arrays differ, or -1. */
export function firstDifference(actual: Uint8Array, expected: Uint8Array): number {
  if (Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))) {
    return -1;
  }
  const length = Math.min(actual.byteLength, expected.byteLength);
  for (let index = 0; index < length; index += 1) if (actual[index] !== expected[index]) return index;
  return length;
}

/** The indices of the pages of `pageBytes` in which two equally long byte arrays differ. */
export function differingPages(left: Uint8Array, right: Uint8Array, pageBytes: number): number[] {
  const pages: number[] = [];
  for (let start = 0, page = 0; start < left.byteLength; start += pageBytes, page += 1) {
    const end = Math.min(start + pageBytes, left.byteLength);
    if (firstDifference(left.subarray(start, end), right.subarray(start, end)) >= 0) pages.push(page);
  }
  return pages;
}

/** Indices where two hash arrays differ. */
export function differingIndices(left: BigUint64Array, right: BigUint64Array): number[] {
  const indices: number[] = [];
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    if (left[index] !== right[index]) indices.push(index);
  }
  return indices;
}
