import type { KernelArguments, KernelDescriptor } from '@kreplay/native';
import type { FakeMemory } from './fake-memory.js';

/** The kernels the fake runtime runs: small, byte-level, each showing one thing to the engine. */
export const fakeKernels = {
  /** Every byte of `destination` becomes `value`. */
  fill: {
    name: 'fill',
    deterministic: true,
    parameters: [
      { name: 'destination', type: 'pointer', access: 'write', extent: { bytesParameter: 'bytes' } },
      { name: 'bytes', type: 'u64' },
      { name: 'value', type: 'u32' },
    ],
  },
  /** Every byte of `buffer` grows by one: running it twice shows a missing restore. */
  increment: {
    name: 'increment',
    deterministic: true,
    parameters: [
      { name: 'buffer', type: 'pointer', access: 'readwrite', extent: { bytesParameter: 'bytes' } },
      { name: 'bytes', type: 'u64' },
    ],
  },
  /** Declares `buffer` read-only but increments its first byte: a wrong write set. */
  sneaky: {
    name: 'sneaky',
    deterministic: true,
    parameters: [{ name: 'buffer', type: 'pointer', access: 'read' }],
  },
  /** Writes a random byte to `output`: not deterministic. */
  random: {
    name: 'random',
    deterministic: false,
    parameters: [{ name: 'output', type: 'pointer', access: 'write', extent: { constantBytes: 1 } }],
  },
} satisfies Record<string, KernelDescriptor>;

const number = (value: KernelArguments[string] | undefined): number => {
  if (value instanceof Uint8Array) throw new Error('fake: the fake kernels take no bytes arguments');
  return Number(value ?? 0);
};

/** Runs a fake kernel on the fake memory. */
export function runFakeKernel(memory: FakeMemory, kernel: KernelDescriptor, args: KernelArguments): void {
  switch (kernel.name) {
    case 'fill':
      memory.span(number(args.destination), number(args.bytes)).fill(number(args.value) & 0xff);
      return;
    case 'increment': {
      const bytes = memory.span(number(args.buffer), number(args.bytes));
      for (let index = 0; index < bytes.length; index += 1) bytes[index] = (bytes[index]! + 1) & 0xff;
      return;
    }
    case 'sneaky': {
      const bytes = memory.span(number(args.buffer), 1);
      bytes[0] = (bytes[0]! + 1) & 0xff;
      return;
    }
    case 'random':
      memory.span(number(args.output), 1)[0] = Math.floor(Math.random() * 256);
      return;
    default:
      throw new Error(`fake: unknown kernel ${kernel.name}`);
  }
}
