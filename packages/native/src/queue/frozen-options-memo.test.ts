import { describe, expect, it } from 'vitest';
import { FrozenOptionsMemo } from './frozen-options-memo.js';
import { ArgumentError, openRuntime } from '../index.js';

describe('FrozenOptionsMemo', () => {
  const segments = () => Object.freeze([Object.freeze({ source: 1, destination: 2, bytes: 3 })]);

  it('packs deeply frozen options once while the free count stays, and again once it moves', () => {
    const memo = new FrozenOptionsMemo<number>();
    const options = Object.freeze({ segments: segments(), pageBytes: 4096 });
    let packings = 0;
    const pack = () => (packings += 1);
    expect(memo.packed(options, 0, pack)).toBe(1);
    expect(memo.packed(options, 0, pack)).toBe(1);
    expect(memo.packed(options, 1, pack)).toBe(2);
    expect(memo.packed(options, 1, pack)).toBe(2);
    expect(packings).toBe(2);
  });

  it('packs every time what is not deeply frozen: the object, its segments array or a segment', () => {
    const memo = new FrozenOptionsMemo<number>();
    const cases = [
      { segments: segments(), pageBytes: 4096 },
      Object.freeze({ segments: [Object.freeze({ source: 1, destination: 2, bytes: 3 })], pageBytes: 4096 }),
      Object.freeze({ segments: Object.freeze([{ source: 1, destination: 2, bytes: 3 }]), pageBytes: 4096 }),
      [{ source: 1, destination: 2, bytes: 3 }],
    ];
    for (const options of cases) {
      let packings = 0;
      memo.packed(options, 0, () => (packings += 1));
      memo.packed(options, 0, () => (packings += 1));
      expect(packings).toBe(2);
    }
  });

  it('remembers nothing when packing throws', () => {
    const memo = new FrozenOptionsMemo<number>();
    const options = Object.freeze({ segments: segments() });
    expect(() => memo.packed(options, 0, () => { throw new Error('bad'); })).toThrow('bad');
    expect(memo.packed(options, 0, () => 7)).toBe(7);
  });
});

describe('frozen copy options on a queue', () => {
  it('are checked again once memory was freed: a range freed since is refused', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const agent = runtime.agents[0]!;
    const pageBytes = 4096;
    const memory = agent.allocate(4 * pageBytes);
    const mirror = agent.allocate(4 * pageBytes);
    const list = agent.allocate(16);
    const count = agent.allocate(4);
    await agent.write(count.address, new Uint8Array(4));
    const copy = Object.freeze({
      segments: Object.freeze([Object.freeze({ source: mirror.address, destination: memory.address, bytes: 4 * pageBytes })]),
      pageBytes,
      pageListAddress: list.address,
      pageCountAddress: count.address,
    });
    const plan = copy.segments;
    await using queue = agent.createQueue();
    queue.enqueueCopyPageList(copy);
    queue.enqueueCopy(plan);
    queue.enqueueCopyPageList(copy);
    await queue.synchronize();
    mirror.free();
    expect(() => queue.enqueueCopyPageList(copy)).toThrow(ArgumentError);
    expect(() => queue.enqueueCopy(plan)).toThrow(/outside live memory|not inside|freed/);
    expect(queue.workEnqueued).toBe(3);
  });

  it('are not trusted when not frozen: a segment changed in place is checked', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const agent = runtime.agents[0]!;
    const memory = agent.allocate(4096);
    const mirror = agent.allocate(4096);
    const segment = { source: mirror.address, destination: memory.address, bytes: 4096 };
    const plan = Object.freeze([segment]);
    await using queue = agent.createQueue();
    queue.enqueueCopy(plan);
    segment.bytes = 8192;
    expect(() => queue.enqueueCopy(plan)).toThrow(ArgumentError);
    await queue.synchronize();
  });
});
