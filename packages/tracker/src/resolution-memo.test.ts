import type { KernelDescriptor, KernelParameter } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fake-runtime.js';
import { createTracker } from './tracker.js';

/** A descriptor as the runtime makes them: frozen all the way down. */
function frozenKernel(...parameters: KernelParameter[]): KernelDescriptor {
  return Object.freeze({
    name: 'k',
    deterministic: true,
    parameters: Object.freeze(parameters.map((parameter) => Object.freeze({ ...parameter, ...(parameter.extent && { extent: Object.freeze(parameter.extent) }) }))),
  });
}

const copyKernel = frozenKernel(
  { name: 'destination', type: 'pointer', access: 'write', extent: { bytesParameter: 'bytes' } },
  { name: 'source', type: 'pointer', access: 'read', extent: { bytesParameter: 'bytes' } },
  { name: 'bytes', type: 'u64' },
  { name: 'seed', type: 'u32' },
);

function setup() {
  const runtime = new FakeRuntime(2);
  const tracker = createTracker(runtime);
  runtime.allocate(0, 0x10000, 0x1000);
  runtime.allocate(0, 0x20000, 0x1000);
  return { runtime, tracker };
}

const args = { destination: 0x10000, source: 0x20000, bytes: 256, seed: 1 };

describe('resolveArguments of the same arguments again', () => {
  it('hands out the same resolution while nothing it depends on changed', () => {
    const { tracker } = setup();
    const first = tracker.resolveArguments(0, copyKernel, args);
    expect(tracker.resolveArguments(0, copyKernel, { ...args })).toBe(first);
    // a value no pointer's extent depends on does not matter
    expect(tracker.resolveArguments(0, copyKernel, { ...args, seed: 2 })).toBe(first);
  });

  it('resolves again when a pointer or an extent changes', () => {
    const { tracker } = setup();
    const first = tracker.resolveArguments(0, copyKernel, args);
    const moved = tracker.resolveArguments(0, copyKernel, { ...args, destination: 0x10100 });
    expect(moved.reached.map((reached) => reached.range.address)).toEqual([0x10100, 0x20000]);
    const wider = tracker.resolveArguments(0, copyKernel, { ...args, bytes: 512 });
    expect(wider).not.toBe(first);
    expect(wider.reached.map((reached) => reached.range.bytes)).toEqual([512, 512]);
  });

  it('resolves again after a tag changes', () => {
    const { tracker } = setup();
    tracker.resolveArguments(0, copyKernel, args);
    tracker.tag(0x20000, 'excluded');
    expect(tracker.resolveArguments(0, copyKernel, args).reached.map((reached) => reached.allocation.address)).toEqual([0x10000]);
    tracker.tag(0x10000, 'read-only');
    expect(tracker.resolveArguments(0, copyKernel, args).reasons.join()).toMatch(/tagged read-only/);
  });

  it('resolves again after an allocation is freed or made', () => {
    const { runtime, tracker } = setup();
    expect(tracker.resolveArguments(0, copyKernel, args).unresolved).toEqual([]);
    runtime.free(0, 0x20000);
    expect(tracker.resolveArguments(0, copyKernel, args).unresolved.map((pointer) => pointer.parameter)).toEqual(['source']);
    runtime.allocate(0, 0x20000, 0x80);
    const clipped = tracker.resolveArguments(0, copyKernel, args);
    expect(clipped.unresolved).toEqual([]);
    expect(clipped.reasons.join()).toMatch(/past the end/);
  });

  it('resolves again on another agent', () => {
    const { tracker } = setup();
    tracker.resolveArguments(0, copyKernel, args);
    expect(tracker.resolveArguments(1, copyKernel, args).unresolved).toHaveLength(2);
  });

  it('does not remember a descriptor that can change', () => {
    const { tracker } = setup();
    const parameters: KernelParameter[] = [{ name: 'destination', type: 'pointer', access: 'read', extent: { constantBytes: 64 } }];
    const mutable: KernelDescriptor = { name: 'k', deterministic: true, parameters };
    expect(tracker.resolveArguments(0, mutable, { destination: 0x10000 }).reached[0]!.access).toBe('read');
    parameters[0] = { ...parameters[0]!, access: 'write' };
    expect(tracker.resolveArguments(0, mutable, { destination: 0x10000 }).reached[0]!.access).toBe('write');
  });

  it('compares a parameter buffer by its bytes, also when it was changed in place', () => {
    const { tracker } = setup();
    const captured = frozenKernel({ name: 'parameters', type: 'bytes', size: 8 });
    const buffer = new Uint8Array(8);
    new DataView(buffer.buffer).setBigUint64(0, 0x10000n, true);
    const first = tracker.resolveArguments(0, captured, { parameters: buffer });
    expect(first.reached.map((reached) => reached.allocation.address)).toEqual([0x10000]);
    expect(tracker.resolveArguments(0, captured, { parameters: buffer.slice() })).toBe(first);
    new DataView(buffer.buffer).setBigUint64(0, 0x20000n, true);
    expect(tracker.resolveArguments(0, captured, { parameters: buffer }).reached.map((reached) => reached.allocation.address)).toEqual([0x20000]);
  });
});
