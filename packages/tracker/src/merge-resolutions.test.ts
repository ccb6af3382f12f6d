import type { KernelDescriptor } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fake-runtime.js';
import { mergeResolutions } from './merge-resolutions.js';
import { createTracker } from './tracker.js';

const fill: KernelDescriptor = {
  name: 'fill',
  deterministic: true,
  parameters: [
    { name: 'destination', type: 'pointer', access: 'write', extent: { bytesParameter: 'bytes' } },
    { name: 'bytes', type: 'u64' },
  ],
};
const copy: KernelDescriptor = {
  name: 'copy',
  deterministic: true,
  parameters: [
    { name: 'source', type: 'pointer', access: 'read', extent: { bytesParameter: 'bytes' } },
    { name: 'target', type: 'pointer', access: 'write', extent: { bytesParameter: 'bytes' } },
    { name: 'bytes', type: 'u64' },
  ],
};
const gather: KernelDescriptor = {
  name: 'gather',
  deterministic: true,
  parameters: [{ name: 'table', type: 'pointer', access: 'read', indirect: true }],
};

function setup() {
  const runtime = new FakeRuntime(1);
  const tracker = createTracker(runtime);
  runtime.allocate(0, 0x10000, 0x1000);
  runtime.allocate(0, 0x20000, 0x1000);
  return tracker;
}

describe('mergeResolutions', () => {
  it('unites reached allocations: strongest access, covering range, every parameter name', () => {
    const tracker = setup();
    const first = tracker.resolveArguments(0, fill, { destination: 0x10100, bytes: 0x100 });
    const second = tracker.resolveArguments(0, copy, { source: 0x10800, target: 0x20000, bytes: 0x80 });
    const merged = mergeResolutions([first, second]);
    expect(merged.reached.map((reached) => [reached.allocation.address, reached.access, reached.parameters, reached.range])).toEqual([
      [0x10000, 'readwrite', ['destination', 'source'], { address: 0x10100, bytes: 0x780 }],
      [0x20000, 'write', ['target'], { address: 0x20000, bytes: 0x80 }],
    ]);
    expect(merged.bounded).toBe(true);
    expect(Object.isFrozen(merged) && Object.isFrozen(merged.reached) && Object.isFrozen(merged.reached[0])).toBe(true);
  });

  it('is bounded only when every resolution is, and concatenates reasons and unresolved pointers in order', () => {
    const tracker = setup();
    const missing = tracker.resolveArguments(0, fill, { destination: 0x70000, bytes: 16 });
    const indirect = tracker.resolveArguments(0, gather, { table: 0x20000 });
    const merged = mergeResolutions([missing, indirect]);
    expect(merged.bounded).toBe(false);
    expect(merged.unresolved).toEqual(missing.unresolved);
    expect(merged.reasons).toEqual([...missing.reasons, ...indirect.reasons]);
  });

  it('returns one resolution as it is, and the same merged object for the same resolutions', () => {
    const tracker = setup();
    const first = tracker.resolveArguments(0, fill, { destination: 0x10000, bytes: 16 });
    const second = tracker.resolveArguments(0, fill, { destination: 0x20000, bytes: 16 });
    expect(mergeResolutions([first])).toBe(first);
    expect(mergeResolutions([first, second])).toBe(mergeResolutions([first, second]));
    expect(mergeResolutions([first, second])).not.toBe(mergeResolutions([first, second, second]));
    expect(() => mergeResolutions([])).toThrow(RangeError);
  });
});
