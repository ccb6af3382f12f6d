import type { ScatterWorkloadOptions } from '../workloads/scatter-workload.js';

/** The two shapes of the reference design's modest workload. */
export type WorkloadShape = 'A' | 'B';

/**
 * Shape A, inference-like: read-only weights are 75% of the footprint and the writable state is at
 * most 25% of it. Shape B, scattered writes: the written pages are spread over a read-write buffer
 * that is 80% of the footprint. In both the kernel writes `writeFraction` of the footprint's pages.
 */
export function shapeWorkload(shape: WorkloadShape, footprintBytes: number, writeFraction: number): ScatterWorkloadOptions {
  return shape === 'A'
    ? { footprintBytes, writeFraction, stateShare: 0.25, inputShare: 0.75 }
    : { footprintBytes, writeFraction, stateShare: 0.8, inputShare: 0.15 };
}
