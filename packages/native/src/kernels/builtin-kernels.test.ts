import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { mix64 } from '../queue/page-hash.js';
import type { Queue, Runtime } from '../runtime/runtime-objects.js';

/** TypeScript references of the BuiltinKernels semantics (runtime-types.ts), bit for bit. */
const reference = {
  fill(bytes: number, value: number): Uint8Array {
    const result = new Uint8Array(bytes);
    for (let index = 0; index < bytes; index += 1) result[index] = (value >>> (8 * (index % 4))) & 0xff;
    return result;
  },
  scatterWrite(buffer: Uint8Array, pageBytes: number, fraction: number, seed: bigint, source: Uint8Array): Uint8Array {
    const result = buffer.slice();
    const view = new DataView(result.buffer);
    const sourceView = new DataView(source.buffer, source.byteOffset, source.byteLength);
    let digest = 0n;
    for (let offset = 0; offset + 8 <= source.byteLength; offset += 8) digest ^= sourceView.getBigUint64(offset, true);
    for (let page = 0; page * pageBytes < result.byteLength; page += 1) {
      if (!(Number(mix64(seed ^ mix64(BigInt(page))) >> 11n) < fraction * 2 ** 53)) continue;
      const end = Math.min((page + 1) * pageBytes, result.byteLength);
      for (let word = Math.ceil((page * pageBytes) / 8); 8 * word + 8 <= end; word += 1) {
        const value = view.getBigUint64(8 * word, true);
        view.setBigUint64(8 * word, BigInt.asUintN(64, value * 0x5851f42d4c957f2dn + (digest ^ seed ^ BigInt(word))), true);
      }
    }
    return result;
  },
  triad(b: Float32Array, c: Float32Array, scalar: number): Float32Array {
    const s = Math.fround(scalar);
    return b.map((value, index) => Math.fround(value + Math.fround(s * c[index]!)));
  },
  stencil(x: Float32Array): Float32Array {
    const result = x.slice();
    for (let index = 1; index < x.length - 1; index += 1) {
      result[index] = Math.fround(Math.fround(Math.fround(x[index - 1]! + x[index]!) + x[index + 1]!) / 3);
    }
    return result;
  },
};

function randomFloats(count: number, seed: number): Float32Array {
  const values = new Float32Array(count);
  let state = seed;
  for (let index = 0; index < count; index += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[index] = (state / 2 ** 32) * 200 - 100;
  }
  return values;
}

const bytesOf = (array: ArrayBufferView) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Byte equality without a huge diff: reports the first differing offset. */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.byteLength).toBe(expected.byteLength);
  if (Buffer.from(actual).equals(Buffer.from(expected))) return;
  const first = actual.findIndex((value, index) => value !== expected[index]);
  expect.fail(`first differing byte at ${first}: got ${actual[first]}, expected ${expected[first]}`);
}

describe('built-in kernels on the host driver', () => {
  let runtime: Runtime;
  let queue: Queue;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 128 << 20, threads: 2 } });
    queue = runtime.agents[0]!.createQueue();
  });
  afterAll(() => runtime.dispose());

  const agent = () => runtime.agents[0]!;
  async function upload(data: Uint8Array) {
    const allocation = agent().allocate(Math.max(1, data.byteLength));
    await agent().write(allocation.address, data);
    return allocation;
  }
  async function download(address: number, bytes: number) {
    await queue.synchronize();
    return agent().read(address, bytes);
  }

  it.each([0, 1, 3, 4, 4099, (3 << 20) + 7])('fill writes the little-endian pattern over %i bytes', async (bytes) => {
    const buffer = agent().allocate(bytes + 16);
    queue.enqueueKernel(runtime.kernels.fill, { destination: buffer.address, bytes, value: 0xa1b2c3d4 });
    expectSameBytes(await download(buffer.address, bytes), reference.fill(bytes, 0xa1b2c3d4));
  });

  it.each([
    [4096, 0.5, 12345n, 64 * 4096],
    [4096, 1, 1n, 4096 * 3 + 100],
    [100, 0.3, 0xffffffffffffffffn, 10_007],
    [4096, 0, 5n, 8192],
  ])('scatterWrite pages of %i, fraction %f, seed %i over %i bytes', async (pageBytes, fraction, seed, bytes) => {
    const data = bytesOf(randomFloats(Math.ceil(bytes / 4), bytes)).slice(0, bytes);
    const source = bytesOf(randomFloats(33, 9)).slice(0, 131);
    const buffer = await upload(data);
    const sourceBuffer = await upload(source);
    queue.enqueueKernel(runtime.kernels.scatterWrite, {
      buffer: buffer.address, bytes, pageBytes, fraction, seed, source: sourceBuffer.address, sourceBytes: source.byteLength,
    });
    expectSameBytes(await download(buffer.address, bytes), reference.scatterWrite(data, pageBytes, fraction, seed, source));
  });

  it('triad computes a = b + scalar * c in float32', async () => {
    const count = 300_001;
    const b = randomFloats(count, 1);
    const c = randomFloats(count, 2);
    const [bBuffer, cBuffer] = [await upload(bytesOf(b)), await upload(bytesOf(c))];
    const a = agent().allocate(count * 4);
    queue.enqueueKernel(runtime.kernels.triad, { a: a.address, b: bBuffer.address, c: cBuffer.address, scalar: 0.1, count });
    expectSameBytes(await download(a.address, count * 4), bytesOf(reference.triad(b, c, 0.1)));
  });

  it.each([0, 1, 2, 3, 10, 600_003])('stencil smooths %i floats in place from the old values', async (count) => {
    const x = randomFloats(count, count + 5);
    const buffer = await upload(bytesOf(x));
    queue.enqueueKernel(runtime.kernels.stencil, { buffer: buffer.address, count });
    expectSameBytes(await download(buffer.address, count * 4), bytesOf(reference.stencil(x)));
  });

  it('accumulate sums float32 values, in an order that changes between runs', async () => {
    const count = 1 << 20;
    const input = randomFloats(count, 77).map((value, index) => value * 10 ** ((index % 13) - 6));
    const inputBuffer = await upload(bytesOf(input));
    const output = agent().allocate(4);
    let exact = 0;
    for (const value of input) exact += value;
    const results = new Set<number>();
    for (let run = 0; run < 12; run += 1) {
      queue.enqueueKernel(runtime.kernels.accumulate, { input: inputBuffer.address, count, output: output.address });
      const sum = new Float32Array((await download(output.address, 4)).slice().buffer)[0]!;
      expect(Math.abs(sum - exact)).toBeLessThan(1e-3 * Math.max(1, Math.abs(exact)) + 1);
      results.add(sum);
    }
    expect(results.size).toBeGreaterThan(1);
  });

  it('validates launches against the declared parameters', () => {
    const buffer = agent().allocate(4096);
    const fill = runtime.kernels.fill;
    const launch = (args: Record<string, number | bigint>) => () => queue.enqueueKernel(fill, args);
    expect(launch({ destination: buffer.address, bytes: 4096 })).toThrow(/value of kernel fill is missing/);
    expect(launch({ destination: buffer.address, bytes: 4097, value: 1 })).toThrow(/past the end/);
    expect(launch({ destination: buffer.address, bytes: 16, value: 2 ** 32 })).toThrow(ArgumentError);
    expect(launch({ destination: buffer.address, bytes: -1, value: 1 })).toThrow(ArgumentError);
    expect(launch({ destination: buffer.address, bytes: 16, value: 1, extra: 1 })).toThrow(/unknown option "extra"/);
    expect(launch({ destination: buffer.address, bytes: 2n ** 60n, value: 1 })).toThrow(ArgumentError);
    expect(() =>
      queue.enqueueKernel(runtime.kernels.scatterWrite, {
        buffer: buffer.address, bytes: 4096, pageBytes: 0, fraction: 1, seed: 1n, source: buffer.address, sourceBytes: 0,
      }),
    ).toThrow(/pageBytes of scatterWrite is 0/);
    expect(() => queue.enqueueKernel({ name: 'mine', parameters: [], deterministic: true }, {})).toThrow(UnsupportedError);
    const other = runtime.agents[1]!.allocate(4096);
    expect(launch({ destination: other.address, bytes: 16, value: 1 })).toThrow(/device memory of agent 1/);
  });
});
