import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { mix64, pageHash } from './page-hash.js';
import type { Runtime } from '../runtime/runtime-objects.js';

function randomBytes(count: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(count);
  let state = seed;
  for (let index = 0; index < count; index += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

describe('pageHash (TypeScript reference)', () => {
  it('implements splitmix64 mix64', () => {
    // splitmix64's first output from seed 0 is mix64(0x9E3779B97F4A7C15).
    expect(mix64(0x9e3779b97f4a7c15n)).toBe(0xe220a8397b1dcdafn);
    expect(mix64(0n)).toBe(0n);
    expect(mix64(1n << 64n)).toBe(0n);
  });

  it('follows the API.md formula, zero-padding the last word', () => {
    const bytes = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    const K = 0x9e3779b97f4a7c15n;
    const w0 = 0x0807060504030201n;
    const w1 = 0x0b0a09n;
    const sum = BigInt.asUintN(64, mix64(w0 + K) + mix64(w1 + 2n * K));
    expect(pageHash(bytes)).toBe(mix64(sum ^ BigInt.asUintN(64, 11n * 0xd6e8feb86659fd93n)));
    expect(pageHash(new Uint8Array(0))).toBe(mix64(0n));
  });

  it('changes when any byte changes, and with the length', () => {
    const bytes = randomBytes(256, 1);
    const base = pageHash(bytes);
    for (const offset of [0, 7, 8, 100, 255]) {
      const changed = bytes.slice();
      changed[offset] = changed[offset]! ^ 1;
      expect(pageHash(changed)).not.toBe(base);
    }
    expect(pageHash(new Uint8Array(8))).not.toBe(pageHash(new Uint8Array(16)));
  });

  it('rejects what is not a Uint8Array', () => {
    expect(() => pageHash([1, 2] as unknown as Uint8Array)).toThrow(ArgumentError);
    expect(() => mix64(3 as unknown as bigint)).toThrow(ArgumentError);
  });
});

describe('native page hashing (host driver) vs the TypeScript reference', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 64 << 20, threads: 2 } });
  });
  afterAll(() => runtime.dispose());

  function reference(data: Uint8Array, pageBytes: number): bigint[] {
    const hashes: bigint[] = [];
    for (let start = 0; start < data.byteLength; start += pageBytes) hashes.push(pageHash(data.subarray(start, start + pageBytes)));
    return hashes;
  }

  it.each([
    [4096, 3 * 4096],
    [4096, 2 * 4096 + 1000 + 5],
    [64, 64 * 7 + 3],
    [1, 17],
    [24, 100],
    [3 << 20, (3 << 20) * 2 + 12345],
  ])('pages of %i bytes over %i bytes', async (pageBytes, length) => {
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const data = randomBytes(length, length);
    const allocation = agent.allocate(length);
    await agent.write(allocation.address, data);
    const hashes = await queue.hashPages([{ address: allocation.address, bytes: length }], pageBytes);
    expect([...hashes]).toEqual(reference(data, pageBytes));
    allocation.free();
    await queue.dispose();
  });

  it('numbers pages per range in order and writes them to device memory', async () => {
    const agent = runtime.agents[0]!;
    const queue = agent.createQueue();
    const first = randomBytes(10_000, 3);
    const second = randomBytes(5000, 4);
    const buffer = agent.allocate(20_000);
    await agent.write(buffer.address, first);
    await agent.write(buffer.address + 10_000, second);
    const ranges = [
      { address: buffer.address, bytes: 10_000 },
      { address: buffer.address + 10_000, bytes: 5000 },
      { address: buffer.address, bytes: 0 },
    ];
    const expected = [...reference(first, 4096), ...reference(second, 4096)];
    const out = agent.allocate(expected.length * 8);
    queue.enqueueHashPages(ranges, 4096, out.address);
    await queue.synchronize();
    const bytes = await agent.read(out.address, expected.length * 8);
    expect([...new BigUint64Array(bytes.buffer, bytes.byteOffset, expected.length)]).toEqual(expected);
    await queue.dispose();
  });
});
