import { ArgumentError, type KernelDescriptor } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fake-runtime.js';
import { createTracker } from './tracker.js';

/** A captured kernel as the capture loader declares it: one raw parameter buffer. */
function bufferKernel(size: number, indirect = false): KernelDescriptor {
  return { name: 'captured', deterministic: true, parameters: [{ name: 'parameters', type: 'bytes', size, ...(indirect && { indirect: true }) }] };
}

/** A parameter buffer of little-endian 64-bit words (the C ABI layout of pointers and 8-byte scalars). */
function words(...values: (number | bigint)[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setBigUint64(index * 8, BigInt(value), true));
  return bytes;
}

function setup() {
  const runtime = new FakeRuntime(2);
  const tracker = createTracker(runtime);
  runtime.allocate(0, 0x10000, 0x1000);
  runtime.allocate(0, 0x20000, 0x1000);
  runtime.allocate(1, 0x90000, 0x1000);
  runtime.allocateHost(0x50000, 0x1000);
  return { runtime, tracker };
}

describe('resolveArguments of a bytes parameter', () => {
  it('reads each aligned word inside a tracked allocation as a pointer of unknown access to its end', () => {
    const { tracker } = setup();
    // y, x, then a float and an unsigned packed into one word (axpy's layout), then a host pointer.
    const buffer = words(0x20100, 0x10000, 0x0000_0400_4000_0000n, 0x50010);
    const resolution = tracker.resolveArguments(0, bufferKernel(buffer.length), { parameters: buffer });
    expect(resolution.bounded).toBe(true);
    expect(resolution.unresolved).toEqual([]);
    expect(resolution.reasons).toEqual([]);
    expect(resolution.reached.map((reached) => [reached.allocation.address, reached.access, reached.parameters, reached.range])).toEqual([
      [0x10000, 'readwrite', ['parameters+8'], { address: 0x10000, bytes: 0x1000 }],
      [0x20000, 'readwrite', ['parameters+0'], { address: 0x20100, bytes: 0xf00 }],
      [0x50000, 'readwrite', ['parameters+24'], { address: 0x50010, bytes: 0xff0 }],
    ]);
  });

  it('treats words that land nowhere as scalars, and ignores unaligned bytes and a short tail', () => {
    const { tracker } = setup();
    const buffer = new Uint8Array(8 * 3 + 4);
    const view = new DataView(buffer.buffer);
    view.setBigUint64(0, 0x40000n, true); // in no allocation: a scalar
    view.setBigUint64(8, 0x90000n, true); // agent 1's memory: not agent 0's to reach, a scalar here
    view.setUint32(20, 0x10000, true); // an address at an unaligned offset: not a pointer slot
    view.setUint32(24, 0x10000, true); // the 4-byte tail
    const resolution = tracker.resolveArguments(0, bufferKernel(buffer.length), { parameters: buffer });
    expect(resolution).toMatchObject({ reached: [], unresolved: [], reasons: [], bounded: true });
  });

  it('merges several words into one allocation and with pointer parameters', () => {
    const { tracker } = setup();
    const kernel: KernelDescriptor = {
      name: 'mixed',
      deterministic: true,
      parameters: [
        { name: 'out', type: 'pointer', access: 'write', extent: { constantBytes: 16 } },
        { name: 'parameters', type: 'bytes', size: 16 },
      ],
    };
    const resolution = tracker.resolveArguments(0, kernel, { out: 0x10000, parameters: words(0x10800, 0x10400) });
    expect(resolution.reached).toHaveLength(1);
    expect(resolution.reached[0]).toMatchObject({
      access: 'readwrite',
      parameters: ['out', 'parameters+0', 'parameters+8'],
      range: { address: 0x10000, bytes: 0x1000 },
    });
  });

  it('is not bounded when the parameter buffer is indirect, and still reaches its words', () => {
    const { tracker } = setup();
    const resolution = tracker.resolveArguments(0, bufferKernel(8, true), { parameters: words(0x20000) });
    expect(resolution.bounded).toBe(false);
    expect(resolution.reasons).toHaveLength(1);
    expect(resolution.reasons[0]).toMatch(/"parameters" of kernel captured is an indirect parameter buffer.*cannot be bounded/);
    expect(resolution.reached.map((reached) => reached.parameters)).toEqual([['parameters+0']]);
    const empty = tracker.resolveArguments(0, bufferKernel(8, true), { parameters: words(0) });
    expect(empty.bounded).toBe(false);
  });

  it('leaves excluded allocations out, and says when a word may write a read-only one', () => {
    const { tracker } = setup();
    tracker.tag(0x10000, 'excluded');
    tracker.tag(0x20000, 'read-only');
    const resolution = tracker.resolveArguments(0, bufferKernel(16), { parameters: words(0x10000, 0x20040) });
    expect(resolution.reached.map((reached) => reached.allocation.address)).toEqual([0x20000]);
    expect(resolution.reasons).toHaveLength(1);
    expect(resolution.reasons[0]).toMatch(/word at byte 8 of argument "parameters" .*\(0x20040\) may write allocation #2 .*unknown.*tagged read-only/);
  });

  it('rejects a missing buffer, one that is not a Uint8Array, and one of another size', () => {
    const { tracker } = setup();
    const cases: [unknown, RegExp][] = [
      [undefined, /bytes argument "parameters" of kernel captured is missing/],
      [0x10000, /is 65536, not a Uint8Array/],
      [new Uint16Array(4), /not a Uint8Array/],
      [new Uint8Array(12), /holds 12 bytes, but the parameter is declared with size 16/],
    ];
    for (const [value, message] of cases) {
      const args: Record<string, Uint8Array> = value === undefined ? {} : { parameters: value as Uint8Array };
      let caught: unknown;
      try {
        tracker.resolveArguments(0, bufferKernel(16), args);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ArgumentError);
      expect((caught as ArgumentError).argument).toBe('parameters');
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).toMatch(/^\[tracker\] \[resolve-arguments\] .+\. .+\.$/);
    }
  });

  it('refuses a parameter buffer passed for a pointer parameter', () => {
    const { tracker } = setup();
    const kernel: KernelDescriptor = { name: 'k', deterministic: true, parameters: [{ name: 'p', type: 'pointer' }] };
    expect(() => tracker.resolveArguments(0, kernel, { p: words(0x10000) })).toThrow(/pointer argument "p" of kernel k is a Uint8Array/);
  });
});
