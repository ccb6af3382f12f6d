import fc from 'fast-check';
import type { KernelArguments, KernelDescriptor, Runtime } from '@kreplay/native';

/** A built-in kernel that writes inside one region of memory and nowhere else, with its choices. */
export const regionWriterArbitrary = fc.record({
  kernel: fc.constantFrom('fill' as const, 'scatterWrite' as const, 'stencil' as const),
  start: fc.double({ min: 0, max: 1, noNaN: true }),
  length: fc.double({ min: 0, max: 1, noNaN: true }),
  value: fc.nat(0xffff_ffff),
  fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  seed: fc.nat(),
});

export type RegionWriter = typeof regionWriterArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** The launch of `writer` over the `bytes` bytes at `address` (a multiple of 4): it writes nothing outside them. */
export function regionWriterLaunch(runtime: Runtime, writer: RegionWriter, address: number, bytes: number): { kernel: KernelDescriptor; args: KernelArguments } {
  const kernels = runtime.kernels;
  const words = bytes / 4;
  if (writer.kernel === 'fill') {
    const startWord = Math.min(words - 1, Math.floor(writer.start * words));
    const lengthWords = Math.floor(writer.length * (words - startWord));
    return { kernel: kernels.fill, args: { destination: address + startWord * 4, bytes: lengthWords * 4, value: writer.value } };
  }
  if (writer.kernel === 'scatterWrite') {
    const args = { buffer: address, bytes, pageBytes: 4096, fraction: writer.fraction, seed: writer.seed, source: address, sourceBytes: 0 };
    return { kernel: kernels.scatterWrite, args };
  }
  return { kernel: kernels.stencil, args: { buffer: address, count: words } };
}
