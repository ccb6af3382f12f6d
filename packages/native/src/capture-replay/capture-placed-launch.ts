import type { CaptureLaunch } from '../capture/capture-folder-types.js';
import type { KernelArguments, KernelDescriptor, KernelLaunch } from '../runtime/runtime-types.js';
import type { CaptureDispatch, CaptureReplayRange } from './capture-dispatch.js';
import type { CapturePage } from './capture-pages.js';

/**
 * A launch placed for replay (its kernel loaded, its ranges placed, its parameter buffer following
 * relocated memory): what its dispatch is made of.
 * @internal
 */
export interface PlacedLaunch {
  readonly record: CaptureLaunch;
  readonly kernel: KernelDescriptor;
  readonly memory: readonly CaptureReplayRange[];
  /** The pages of each range, as `memory` orders them. */
  readonly pages: readonly (readonly CapturePage[])[];
  /** The parameter buffer, its pointers following relocated memory. */
  readonly parameters: Uint8Array;
  readonly relocatedRegions: number;
  readonly notes: readonly string[];
}

/** The dispatch of a placed launch, with what was written to make its memory. */
export function dispatchOf(placed: PlacedLaunch, writes: { readonly pagesWritten: number; readonly bytesWritten: number }): CaptureDispatch {
  const { record, memory } = placed;
  const { shape } = record;
  const launchShape: KernelLaunch = Object.freeze({
    grid: shape.grid,
    block: shape.block,
    sharedBytes: shape.dynamicSharedBytes,
    ...(shape.clusterDims === null ? {} : { clusterDims: shape.clusterDims }),
  });
  return Object.freeze({
    sequence: record.sequence,
    function: record.function,
    kernel: placed.kernel,
    args: Object.freeze(record.parameterBuffer.length === 0 ? {} : { parameters: placed.parameters }) as KernelArguments,
    relocatedRegions: placed.relocatedRegions,
    launch: launchShape,
    memory: Object.freeze([...memory]),
    expectedPageHashes: Object.freeze({
      pageBytes: record.pageBytes,
      ranges: Object.freeze(memory.map((range, index) => Object.freeze({ ...range, hashes: record.memory[index]!.pageHashesAfter }))),
    }),
    pagesWritten: writes.pagesWritten,
    bytesWritten: writes.bytesWritten,
    notes: Object.freeze([...placed.notes]),
  });
}
