import type { KernelArguments, KernelDescriptor, Runtime } from '@kreplay/native';
import fc from 'fast-check';

/** A kernel launch over a list of allocations, by index, so it can be pointed at two identical sets. */
export interface KernelScenario {
  readonly kernel: 'fill' | 'scatterWrite' | 'triad' | 'stencil';
  /** Arguments with pointers as `{ allocation, offset }`. */
  readonly args: Readonly<Record<string, number | { readonly allocation: number; readonly offset: number }>>;
}

/** The descriptor and arguments of a scenario over a set of allocations. */
export function launchOf(
  runtime: Runtime,
  scenario: KernelScenario,
  allocations: readonly { readonly address: number }[],
): { kernel: KernelDescriptor; args: KernelArguments } {
  const args: Record<string, number> = {};
  for (const [name, value] of Object.entries(scenario.args)) {
    args[name] = typeof value === 'number' ? value : allocations[value.allocation]!.address + value.offset;
  }
  return { kernel: runtime.kernels[scenario.kernel], args };
}

/** Allocation sizes: 1 to 5 allocations of 4 bytes to 300 KiB, multiples of 4. */
export const layoutArbitrary = fc.array(fc.integer({ min: 1, max: 75_000 }).map((words) => words * 4), { minLength: 1, maxLength: 5 });

/** A random launch of fill, scatterWrite, triad or stencil over allocations of `sizes`. */
export function scenarioArbitrary(sizes: readonly number[]): fc.Arbitrary<KernelScenario> {
  const index = fc.integer({ min: 0, max: sizes.length - 1 });
  const fill = index.chain((target) =>
    fc.record({ offsetWords: fc.nat(sizes[target]! / 4 - 1), value: fc.nat(0xffff_ffff) }).chain(({ offsetWords, value }) =>
      fc.nat(sizes[target]! - offsetWords * 4).map((bytes) => ({
        kernel: 'fill' as const,
        args: { destination: { allocation: target, offset: offsetWords * 4 }, bytes, value },
      })),
    ),
  );
  const scatterWrite = fc
    .record({ target: index, source: index, fraction: fc.double({ min: 0, max: 1, noNaN: true }), seed: fc.nat(), pageBytes: fc.constantFrom(256, 4096, 65536) })
    .filter(({ target, source }) => sizes.length === 1 || target !== source)
    .map(({ target, source, fraction, seed, pageBytes }) => ({
      kernel: 'scatterWrite' as const,
      args: {
        buffer: { allocation: target, offset: 0 },
        bytes: sizes[target]!,
        pageBytes,
        fraction,
        seed,
        source: { allocation: source, offset: 0 },
        sourceBytes: target === source ? 0 : sizes[source]!,
      },
    }));
  const triad = fc
    .record({ a: index, b: index, c: index, scalar: fc.float({ min: -4, max: 4, noNaN: true }) })
    .filter(({ a, b, c }) => sizes.length === 1 || (a !== b && a !== c))
    .map(({ a, b, c, scalar }) => ({
      kernel: 'triad' as const,
      args: {
        a: { allocation: a, offset: 0 },
        b: { allocation: b, offset: 0 },
        c: { allocation: c, offset: 0 },
        scalar,
        count: sizes.length === 1 ? 0 : Math.min(sizes[a]!, sizes[b]!, sizes[c]!) / 4,
      },
    }));
  const stencil = index.chain((target) =>
    fc.nat(sizes[target]! / 4).map((count) => ({ kernel: 'stencil' as const, args: { buffer: { allocation: target, offset: 0 }, count } })),
  );
  return fc.oneof(fill, scatterWrite, triad, stencil);
}
