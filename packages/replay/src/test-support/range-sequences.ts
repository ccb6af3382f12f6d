import fc from 'fast-check';
import type { Agent, CopySegment, DeviceAllocation, KernelArguments, KernelDescriptor, Queue, Runtime } from '@kreplay/native';
import type { Tracker } from '@kreplay/tracker';
import { expect } from 'vitest';
import { passProviderSpecificationVersion, type PassProvider } from '../pass-provider.js';

/** Bytes of a hash page in these tests (allocations are whole pages). */
export const testPageBytes = 4096;

/** A region of one of the sequence's allocations, in float32 elements. */
export interface Region {
  readonly buffer: number;
  readonly element: number;
  readonly count: number;
}

/** One built-in kernel dispatch over the sequence's allocations, independent of addresses. */
export type SequenceStep =
  | { readonly kernel: 'fill'; readonly target: Region; readonly value: number }
  | { readonly kernel: 'scatterWrite'; readonly target: Region; readonly source: Region; readonly fraction: number; readonly seed: number }
  | { readonly kernel: 'stencil'; readonly target: Region }
  | { readonly kernel: 'triad'; readonly a: Region; readonly b: Region; readonly c: Region; readonly scalar: number };

/** A random case: allocation sizes (in pages), a sequence of steps over them, and a pass count. */
export interface SequenceCase {
  readonly pages: readonly number[];
  readonly steps: readonly SequenceStep[];
  readonly passes: number;
  readonly seed: number;
}

const elementsPerPage = testPageBytes / 4;

/** A region of buffer `buffer` of `pages[buffer]` pages: a random start and length (overlapping others freely). */
function region(pages: readonly number[], buffer: number): fc.Arbitrary<Region> {
  const elements = pages[buffer]! * elementsPerPage;
  return fc.tuple(fc.nat(elements - 1), fc.nat(elements - 1)).map(([start, end]) => {
    const [low, high] = start <= end ? [start, end] : [end, start];
    return { buffer, element: low, count: high - low + 1 };
  });
}

/** Another buffer than `buffer` (the sequences have at least two). */
function otherBuffer(pages: readonly number[], buffer: number): fc.Arbitrary<number> {
  return fc.nat(pages.length - 2).map((pick) => (pick >= buffer ? pick + 1 : pick));
}

function step(pages: readonly number[]): fc.Arbitrary<SequenceStep> {
  const buffer = fc.nat(pages.length - 1);
  return fc.oneof(
    buffer.chain((target) => fc.record({ kernel: fc.constant('fill' as const), target: region(pages, target), value: fc.nat() })),
    buffer.chain((target) =>
      otherBuffer(pages, target).chain((source) =>
        fc.record({
          kernel: fc.constant('scatterWrite' as const),
          target: region(pages, target),
          source: region(pages, source),
          fraction: fc.double({ min: 0.05, max: 1, noNaN: true }),
          seed: fc.nat(),
        }),
      ),
    ),
    buffer.chain((target) => fc.record({ kernel: fc.constant('stencil' as const), target: region(pages, target) })),
    // triad writes `a` from `b` and `c` of another buffer (the same region shape), so no element is read after it is written.
    buffer.chain((a) =>
      otherBuffer(pages, a).chain((input) =>
        region(pages, a).chain((target) => {
          const count = Math.min(target.count, pages[input]! * elementsPerPage);
          const inputRegion = fc.nat(pages[input]! * elementsPerPage - count).map((element) => ({ buffer: input, element, count }));
          return fc.record({
            kernel: fc.constant('triad' as const),
            a: fc.constant({ ...target, count }),
            b: inputRegion,
            c: inputRegion,
            scalar: fc.double({ min: -2, max: 2, noNaN: true }).map(Math.fround),
          });
        }),
      ),
    ),
  );
}

/** Random cases: 2-4 allocations of 1-12 pages, 1-6 steps, 2-4 passes. */
export const sequenceCase: fc.Arbitrary<SequenceCase> = fc
  .array(fc.integer({ min: 1, max: 12 }), { minLength: 2, maxLength: 4 })
  .chain((pages) =>
    fc.record({
      pages: fc.constant(pages),
      steps: fc.array(step(pages), { minLength: 1, maxLength: 6 }),
      passes: fc.integer({ min: 2, max: 4 }),
      seed: fc.nat(),
    }),
  );

/** A step as a kernel and its arguments over `buffers`. */
export function renderStep(runtime: Runtime, buffers: readonly DeviceAllocation[], step: SequenceStep): { kernel: KernelDescriptor; args: KernelArguments } {
  const at = (region: Region) => buffers[region.buffer]!.address + region.element * 4;
  const { kernels } = runtime;
  switch (step.kernel) {
    case 'fill':
      return { kernel: kernels.fill, args: { destination: at(step.target), bytes: step.target.count * 4, value: step.value } };
    case 'scatterWrite':
      return {
        kernel: kernels.scatterWrite,
        args: {
          buffer: at(step.target),
          bytes: step.target.count * 4,
          pageBytes: 1024,
          fraction: step.fraction,
          seed: step.seed,
          source: at(step.source),
          sourceBytes: step.source.count * 4,
        },
      };
    case 'stencil':
      return { kernel: kernels.stencil, args: { buffer: at(step.target), count: step.target.count } };
    case 'triad':
      return { kernel: kernels.triad, args: { a: at(step.a), b: at(step.b), c: at(step.c), scalar: step.scalar, count: step.a.count } };
  }
}

/** The case's allocations on `agent`, filled with the same float32 values on every runtime. */
export async function allocateCase(agent: Agent, testCase: SequenceCase, values: (bytes: number, seed: number) => Uint8Array): Promise<DeviceAllocation[]> {
  return Promise.all(
    testCase.pages.map(async (pages, index) => {
      const allocation = agent.allocate(pages * testPageBytes);
      await agent.write(allocation.address, values(pages * testPageBytes, testCase.seed + index));
      return allocation;
    }),
  );
}

/**
 * A pass provider that hashes `ranges` (page hashes into `hashes`, memory the engine does not
 * track or snapshot) at the start of every pass and right before every dispatch of a range:
 * slot `(pass - 1) * (dispatches + 1)` holds the pass's start, the next ones each dispatch's input.
 */
export function hashingPasses(passes: number, ranges: readonly { address: number; bytes: number }[], hashes: DeviceAllocation, dispatches: number): PassProvider & { readonly pagesPerSlot: number } {
  const pagesPerSlot = ranges.reduce((total, range) => total + Math.ceil(range.bytes / testPageBytes), 0);
  const slot = (index: number) => hashes.address + index * pagesPerSlot * 8;
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: `hashing(${passes})`,
    pagesPerSlot,
    passCount: () => passes,
    beginPass(pass: number, queue: Queue) {
      queue.enqueueHashPages(ranges, testPageBytes, slot((pass - 1) * (dispatches + 1)));
    },
    endPass() {},
    beginDispatch(pass: number, index: number, queue: Queue) {
      queue.enqueueHashPages(ranges, testPageBytes, slot((pass - 1) * (dispatches + 1) + 1 + index));
    },
  };
}

/** Hashes `ranges` on `queue` into slot `index` of `hashes` (as {@link hashingPasses} lays them out). */
export function hashInto(queue: Queue, ranges: readonly { address: number; bytes: number }[], hashes: DeviceAllocation, pagesPerSlot: number, index: number): void {
  queue.enqueueHashPages(ranges, testPageBytes, hashes.address + index * pagesPerSlot * 8);
}

/** Pages of the source buffer the copies before a step read from. */
export const sourcePages = 4;

/** A copy before a step: `target.count` floats from element `sourceElement` of the source buffer into `target`. */
export interface BeforeCopy {
  readonly target: Region;
  readonly sourceElement: number;
}

/** A sequence case whose steps each have 0-2 copies before them. */
export interface SequenceWithCopiesCase extends SequenceCase {
  /** One list per step. */
  readonly copies: readonly (readonly BeforeCopy[])[];
}

function beforeCopy(pages: readonly number[]): fc.Arbitrary<BeforeCopy> {
  const sourceElements = sourcePages * elementsPerPage;
  return fc
    .nat(pages.length - 1)
    .chain((buffer) => fc.tuple(region(pages, buffer), fc.nat(sourceElements - 1)))
    .map(([target, sourceElement]) => ({ target: { ...target, count: Math.min(target.count, sourceElements - sourceElement) }, sourceElement }));
}

/** Random cases of {@link sequenceCase} with random copies before each step. */
export const sequenceWithCopiesCase: fc.Arbitrary<SequenceWithCopiesCase> = sequenceCase.chain((testCase) =>
  fc
    .array(fc.array(beforeCopy(testCase.pages), { maxLength: 2 }), { minLength: testCase.steps.length, maxLength: testCase.steps.length })
    .map((copies) => ({ ...testCase, copies })),
);

/** The copies before a step as a copy plan from `source` into `buffers`. */
export function renderCopies(buffers: readonly DeviceAllocation[], source: DeviceAllocation, copies: readonly BeforeCopy[]): CopySegment[] {
  return copies.map(({ target, sourceElement }) => ({
    source: source.address + sourceElement * 4,
    destination: buffers[target.buffer]!.address + target.element * 4,
    bytes: target.count * 4,
  }));
}

/** The source of a case's copies: the same values on every runtime. */
export async function allocateCopySource(agent: Agent, testCase: SequenceWithCopiesCase, values: (bytes: number, seed: number) => Uint8Array): Promise<DeviceAllocation> {
  const source = agent.allocate(sourcePages * testPageBytes);
  await agent.write(source.address, values(sourcePages * testPageBytes, testCase.seed + 101));
  return source;
}

/** What a sequence leaves when it runs once without replay: its memory after, and its buffers' hashes before each step. */
export interface PlainSequenceRun {
  readonly bytes: Uint8Array[];
  readonly inputs: BigUint64Array;
}

/**
 * Runs `testCase` once on the first agent of `runtime`, without replay: before each step its copies
 * (for a case with copies), then the hashes of its buffers, then its kernel.
 */
export async function runSequencePlainly(runtime: Runtime, testCase: SequenceCase | SequenceWithCopiesCase, values: (bytes: number, seed: number) => Uint8Array): Promise<PlainSequenceRun> {
  const agent = runtime.agents[0]!;
  const buffers = await allocateCase(agent, testCase, values);
  const source = 'copies' in testCase ? await allocateCopySource(agent, testCase, values) : undefined;
  const pagesPerSlot = buffers.reduce((total, buffer) => total + buffer.bytes / testPageBytes, 0);
  const hashes = agent.allocate(testCase.steps.length * pagesPerSlot * 8);
  const queue = agent.createQueue();
  try {
    testCase.steps.forEach((step, index) => {
      if (source !== undefined && 'copies' in testCase) {
        for (const segment of renderCopies(buffers, source, testCase.copies[index]!)) queue.enqueueCopy([segment]);
      }
      hashInto(queue, buffers, hashes, pagesPerSlot, index);
      const { kernel, args } = renderStep(runtime, buffers, step);
      queue.enqueueKernel(kernel, args);
    });
    await queue.synchronize();
    const inputs = new BigUint64Array((await agent.read(hashes.address, hashes.bytes)).slice().buffer);
    const bytes = await Promise.all(buffers.map((buffer) => agent.read(buffer.address, buffer.bytes)));
    return { bytes, inputs };
  } finally {
    await queue.dispose();
    for (const allocation of [...buffers, ...(source === undefined ? [] : [source]), hashes]) allocation.free();
  }
}

/** A {@link hashingPasses} provider over a case's buffers, with the memory it hashes into (left out of every snapshot). */
export interface HashedPasses {
  readonly passes: PassProvider & { readonly pagesPerSlot: number };
  readonly hashes: DeviceAllocation;
}

/** Allocates where {@link hashingPasses} hashes `buffers` for `passCount` passes of `dispatches`, tagged excluded on `tracker`. */
export function allocateHashedPasses(agent: Agent, tracker: Tracker, passCount: number, buffers: readonly DeviceAllocation[], dispatches: number): HashedPasses {
  const pagesPerSlot = buffers.reduce((total, buffer) => total + Math.ceil(buffer.bytes / testPageBytes), 0);
  const hashes = agent.allocate(passCount * (dispatches + 1) * pagesPerSlot * 8);
  tracker.tag(hashes.address, 'excluded');
  return { passes: hashingPasses(passCount, buffers, hashes, dispatches), hashes };
}

/** Expects every pass of a range to start from the same memory, and each of its dispatches to see the input the plain run's saw. */
export async function expectPlainInputsInEveryPass(agent: Agent, { passes, hashes }: HashedPasses, passCount: number, dispatches: number, plain: PlainSequenceRun): Promise<void> {
  const { pagesPerSlot } = passes;
  const taken = new BigUint64Array((await agent.read(hashes.address, hashes.bytes)).slice().buffer);
  const slot = (pass: number, index: number) => Array.from(taken.subarray(((pass - 1) * (dispatches + 1) + index) * pagesPerSlot, ((pass - 1) * (dispatches + 1) + index + 1) * pagesPerSlot));
  for (let pass = 1; pass <= passCount; pass += 1) {
    expect(slot(pass, 0), `memory at the start of pass ${pass}`).toEqual(slot(1, 0));
    for (let index = 0; index < dispatches; index += 1) {
      const plainInput = Array.from(plain.inputs.subarray(index * pagesPerSlot, (index + 1) * pagesPerSlot));
      expect(slot(pass, index + 1), `input of dispatch ${index} in pass ${pass}`).toEqual(plainInput);
    }
  }
}
