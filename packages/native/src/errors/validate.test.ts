import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgumentError } from './argument-error.js';
import { openRuntime } from '../runtime/open-runtime.js';
import type { Runtime } from '../runtime/runtime-objects.js';
import type { OpenRuntimeOptions } from '../runtime/runtime-types.js';

const messageForm = /^\[native\] \[[a-z-]+\] .+\. .+\.$/s;

function thrown(action: () => unknown): ArgumentError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(messageForm);
    return error as ArgumentError;
  }
  throw new Error('expected an ArgumentError');
}

describe('openRuntime validation', () => {
  it.each<[string, unknown]>([
    ['unknown driver', { driver: 'opencl' }],
    ['options not an object', 42],
    ['typo in an option', { drivers: 'host' }],
    ['typo in a host option', { host: { deviceMemory: 1 } }],
    ['zero agents', { host: { agents: 0 } }],
    ['too many agents', { host: { agents: 65 } }],
    ['fractional device memory', { host: { deviceMemoryBytes: 4096.5 } }],
    ['NaN threads', { host: { threads: Number.NaN } }],
    ['huge device memory', { host: { deviceMemoryBytes: 2 ** 60 } }],
  ])('rejects %s with ArgumentError', async (_, options) => {
    const error = await openRuntime(options as OpenRuntimeOptions).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(messageForm);
  });
});

describe('argument validation', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 1 << 20, threads: 1 } });
  });
  afterAll(() => runtime.dispose());
  const agent = () => runtime.agents[0]!;

  it.each<[string, unknown, RegExp]>([
    ['negative', -1, /negative/],
    ['zero', 0, /is 0/],
    ['fractional', 1.5, /whole number/],
    ['NaN', Number.NaN, /NaN/],
    ['above MAX_SAFE_INTEGER', 2 ** 60, /MAX_SAFE_INTEGER/],
    ['a string', '4096', /not a number/],
    ['a bigint', 4096n, /not a number/],
  ])('refuses a %s size', (_, bytes, pattern) => {
    expect(thrown(() => agent().allocate(bytes as number)).message).toMatch(pattern);
    expect(thrown(() => runtime.allocateHost(bytes as number, { pinned: false })).argument).toBe('bytes');
    const queue = agent().createQueue();
    expect(thrown(() => queue.enqueueAllocate(bytes as number)).argument).toBe('bytes');
    void queue.dispose();
  });

  it('refuses ranges outside live allocations, freed pointers and another agent\'s memory', () => {
    const queue = agent().createQueue();
    const allocation = agent().allocate(4096);
    const freed = agent().allocate(4096);
    freed.free();
    const remote = runtime.agents[1]!.allocate(4096);
    const copy = (source: number, destination: number, bytes: number) => () =>
      queue.enqueueCopy([{ source, destination, bytes }]);
    expect(thrown(copy(allocation.address, allocation.address + 2048, 2049)).message).toMatch(/runs 1 bytes past the end/);
    expect(thrown(copy(freed.address, allocation.address, 16)).message).toMatch(/may have been freed/);
    expect(thrown(copy(allocation.address, remote.address, 16)).message).toMatch(/device memory of agent 1/);
    expect(thrown(copy(12345, allocation.address, 16)).argument).toBe('plan[0] source');
    expect(thrown(copy(allocation.address, allocation.address, -4)).argument).toBe('plan[0] source.bytes');
    expect(thrown(() => queue.enqueueCopy({} as never)).message).toMatch(/not an array/);
    expect(thrown(() => queue.enqueueCopy([null] as never)).argument).toBe('plan[0]');
    queue.enqueueCopy([{ source: allocation.address + 4096, destination: allocation.address, bytes: 0 }]);
    expect(thrown(() => freed.free()).message).toMatch(/already freed/);
    void queue.dispose();
  });

  it('refuses bad page sizes and arrays too small for every page', () => {
    const queue = agent().createQueue();
    const buffer = agent().allocate(16_384);
    const hashes = agent().allocate(16);
    const ranges = [{ address: buffer.address, bytes: 16_384 }];
    for (const pageBytes of [0, -4096, 1.5, Number.NaN, 2 ** 33]) {
      expect(thrown(() => queue.enqueueHashPages(ranges, pageBytes, hashes.address)).argument).toBe('pageBytes');
    }
    expect(thrown(() => queue.enqueueHashPages(ranges, 4096, hashes.address)).message).toMatch(/hashesAddress .* runs 16 bytes past/);
    queue.enqueueHashPages(ranges, 8192, hashes.address);
    expect(thrown(() =>
      queue.enqueueCopyChangedPages({
        segments: [{ source: buffer.address, destination: buffer.address, bytes: 16_384 }],
        pageBytes: 4096,
        hashedSide: 'both' as 'source',
        storedHashesAddress: hashes.address,
        updateStoredHashes: true,
        pageListAddress: hashes.address,
        pageCountAddress: hashes.address,
      }),
    ).argument).toBe('options.hashedSide');
    void queue.dispose();
  });

  it('rejects async calls with bad arguments as rejections, never crashes', async () => {
    const queue = agent().createQueue();
    await expect(agent().read(-1, 4)).rejects.toThrow(ArgumentError);
    await expect(agent().read(agent().allocate(4096).address, 4097)).rejects.toThrow(/past the end/);
    await expect(agent().write(agent().allocate(4).address, [1, 2] as never)).rejects.toThrow(ArgumentError);
    await expect(queue.hashPages([{ address: 0, bytes: 1 }], 4096)).rejects.toThrow(ArgumentError);
    expect(() => queue.waitForEvent({} as never)).toThrow(ArgumentError);
    expect(() => runtime.onMemoryEvent(42 as never)).toThrow(ArgumentError);
    expect(() => agent().findAllocation('0' as never)).toThrow(ArgumentError);
    await queue.dispose();
  });
});
