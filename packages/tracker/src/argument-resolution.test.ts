import { ArgumentError, type KernelDescriptor, type KernelParameter } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fake-runtime.js';
import { createTracker } from './tracker.js';

const triad: KernelDescriptor = {
  name: 'triad',
  deterministic: true,
  parameters: [
    { name: 'a', type: 'pointer', access: 'write', extent: { countParameter: 'count', elementBytes: 4 } },
    { name: 'b', type: 'pointer', access: 'read', extent: { countParameter: 'count', elementBytes: 4 } },
    { name: 'c', type: 'pointer', access: 'read', extent: { countParameter: 'count', elementBytes: 4 } },
    { name: 'scalar', type: 'f32' },
    { name: 'count', type: 'u64' },
  ],
};

function kernel(...parameters: KernelParameter[]): KernelDescriptor {
  return { name: 'k', deterministic: true, parameters };
}

function setup() {
  const runtime = new FakeRuntime(2);
  const tracker = createTracker(runtime);
  runtime.allocate(0, 0x10000, 0x1000);
  runtime.allocate(0, 0x20000, 0x1000);
  runtime.allocate(0, 0x30000, 0x1000);
  runtime.allocate(1, 0x90000, 0x1000);
  runtime.allocateHost(0x50000, 0x1000);
  return { runtime, tracker };
}

describe('resolveArguments', () => {
  it('resolves triad to three allocations with their access and ranges', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(0, triad, {
      a: 0x30000,
      b: 0x10000 + 0x100,
      c: 0x20000n,
      scalar: 2.5,
      count: 16n,
    });
    expect(resolution.bounded).toBe(true);
    expect(resolution.reasons).toEqual([]);
    expect(resolution.unresolved).toEqual([]);
    expect(
      resolution.reached.map((reached) => [reached.allocation.address, reached.access, reached.parameters, reached.range]),
    ).toEqual([
      [0x10000, 'read', ['b'], { address: 0x10100, bytes: 64 }],
      [0x20000, 'read', ['c'], { address: 0x20000, bytes: 64 }],
      [0x30000, 'write', ['a'], { address: 0x30000, bytes: 64 }],
    ]);
    expect(Object.isFrozen(resolution.reached[0])).toBe(true);
  });

  it('merges parameters reaching one allocation: strongest access, covering range', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(0, triad, { a: 0x10800, b: 0x10000, c: 0x10010, scalar: 1, count: 4 });
    expect(resolution.reached).toHaveLength(1);
    expect(resolution.reached[0]).toMatchObject({
      access: 'readwrite',
      parameters: ['a', 'b', 'c'],
      range: { address: 0x10000, bytes: 0x810 },
    });
    const reads = tracker.resolveArguments(0, triad, { a: 0, b: 0x10000, c: 0x10000, scalar: 1, count: 4 });
    expect(reads.reached[0]).toMatchObject({ access: 'read', parameters: ['b', 'c'] });
  });

  it('counts an undeclared or unknown access as readwrite, and reaches to the end without an extent', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(
      0,
      kernel({ name: 'p', type: 'pointer' }, { name: 'q', type: 'pointer', access: 'unknown' }),
      { p: 0x10f00, q: 0x20000 },
    );
    expect(resolution.reached.map((reached) => [reached.access, reached.range])).toEqual([
      ['readwrite', { address: 0x10f00, bytes: 0x100 }],
      ['readwrite', { address: 0x20000, bytes: 0x1000 }],
    ]);
  });

  it('supports bytes and constant extents, and clips an overrun with a reason', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(
      0,
      kernel(
        { name: 'p', type: 'pointer', access: 'write', extent: { bytesParameter: 'bytes' } },
        { name: 'q', type: 'pointer', access: 'read', extent: { constantBytes: 8 } },
        { name: 'bytes', type: 'u64' },
      ),
      { p: 0x10f00, q: 0x20000, bytes: 0x200 },
    );
    expect(resolution.reached.map((reached) => reached.range)).toEqual([
      { address: 0x10f00, bytes: 0x100 },
      { address: 0x20000, bytes: 8 },
    ]);
    expect(resolution.bounded).toBe(true);
    expect(resolution.reasons).toHaveLength(1);
    expect(resolution.reasons[0]).toContain('256 bytes past the end');
  });

  it('resolves host buffers, and reports pointers outside every tracked allocation', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(0, triad, { a: 0x50000, b: 0x40000, c: 0x90000, scalar: 0, count: 1 });
    expect(resolution.reached.map((reached) => reached.allocation.kind)).toEqual(['host-pinned']);
    expect(resolution.unresolved).toEqual([
      { parameter: 'b', address: 0x40000 },
      { parameter: 'c', address: 0x90000, peerAgentId: 1 },
    ]);
    expect(resolution.bounded).toBe(true);
    expect(resolution.reasons[0]).toMatch(/"b" of kernel triad points to 0x40000, which is not inside any tracked allocation/);
    expect(resolution.reasons[1]).toMatch(/of agent 1 \(peer memory\)/);
  });

  it('is not bounded when a pointer parameter is indirect, but still reaches its table', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(
      0,
      kernel({ name: 'table', type: 'pointer', access: 'read', indirect: true }),
      { table: 0x20000 },
    );
    expect(resolution.bounded).toBe(false);
    expect(resolution.reasons[0]).toMatch(/"table" of kernel k is indirect/);
    expect(resolution.reached.map((reached) => reached.allocation.address)).toEqual([0x20000]);
  });

  it('leaves excluded allocations out, and flags writes to read-only ones', () => {
    const { tracker } = setup();
    tracker.tag(0x10000, 'excluded');
    tracker.tag(0x30000, 'read-only');
    tracker.tag(0x20000, 'read-only');
    const resolution = tracker.resolveArguments(0, triad, { a: 0x30000, b: 0x10000, c: 0x20000, scalar: 0, count: 1 });
    expect(resolution.reached.map((reached) => [reached.allocation.address, reached.access])).toEqual([
      [0x20000, 'read'],
      [0x30000, 'write'],
    ]);
    expect(resolution.unresolved).toEqual([]);
    expect(resolution.reasons).toHaveLength(1);
    expect(resolution.reasons[0]).toMatch(/"a" of kernel triad may write allocation #3 .* tagged read-only/);
  });

  it('reaches nothing through a null pointer or a zero extent', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(0, triad, { a: 0, b: 0x10000, c: 0x1234, scalar: 0, count: 0 });
    expect(resolution).toMatchObject({ reached: [], unresolved: [], reasons: [], bounded: true });
  });

  it('rejects missing or malformed arguments and malformed kernels', () => {
    const { tracker } = setup();
    const cases: [() => unknown, string, RegExp][] = [
      [() => tracker.resolveArguments(0, triad, { b: 0, c: 0, scalar: 0, count: 1 }), 'a', /pointer argument "a" of kernel triad is missing/],
      [() => tracker.resolveArguments(0, triad, { a: 1.5, b: 0, c: 0, scalar: 0, count: 1 }), 'a', /is 1.5, not an address/],
      [() => tracker.resolveArguments(0, triad, { a: -4, b: 0, c: 0, scalar: 0, count: 1 }), 'a', /not an address/],
      [() => tracker.resolveArguments(0, triad, { a: 2n ** 60n, b: 0, c: 0, scalar: 0, count: 1 }), 'a', /not an address/],
      [() => tracker.resolveArguments(0, triad, { a: 0x10000, b: 0, c: 0, scalar: 0 }), 'count', /"count" of kernel triad is missing/],
      [() => tracker.resolveArguments(0, triad, { a: 0x10000, b: 0, c: 0, scalar: 0, count: -1 }), 'count', /not a non-negative integer/],
      [() => tracker.resolveArguments(0, null as never, {}), 'kernel', /not a kernel descriptor/],
      [() => tracker.resolveArguments(0, triad, null as never), 'args', /not an object/],
      [
        () => tracker.resolveArguments(0, kernel({ name: 'p', type: 'pointer', extent: { countParameter: 'n', elementBytes: 0 } }, { name: 'n', type: 'u32' }), { p: 0x10000, n: 1 }),
        'kernel',
        /elementBytes .* not a positive integer/,
      ],
    ];
    for (const [run, argument, message] of cases) {
      let caught: unknown;
      try {
        run();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ArgumentError);
      expect((caught as ArgumentError).argument).toBe(argument);
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).toMatch(/^\[tracker\] \[resolve-arguments\] .+\. .+\.$/);
    }
  });
});
