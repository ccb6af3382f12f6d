import type { CaptureLaunch, KernelDescriptor, KernelLaunch } from '@kreplay/native';

/**
 * What `kreplay profile` knows of a profiled launch besides its counters: the kernel's name and the
 * launch's shape, as ncu prints them beside each result, and the launch statistics computed from
 * them (ncu's `launch__*` metrics come from the launch, not from counters).
 */

/** A profiled launch's kernel and shape (`ProfileRow.launch`). */
export interface ProfileLaunch {
  /** The function's name as the module holds it (mangled for C++). */
  readonly function: string;
  /** Blocks in x, y, z; null where the workload does not say (kreplay's built-in kernels). */
  readonly grid: readonly [number, number, number] | null;
  /** Threads per block in x, y, z; null where the workload does not say. */
  readonly block: readonly [number, number, number] | null;
  /** Dynamic shared memory per block, in bytes; null where the workload does not say. */
  readonly dynamicSharedBytes: number | null;
  /** Cluster dimensions, null without clusters (or where the workload does not say). */
  readonly clusterDims: readonly [number, number, number] | null;
  /** Registers per thread, when the module's cubin says. */
  readonly registersPerThread: number | null;
}

const product = (dimensions: readonly number[]): number => dimensions.reduce((all, dimension) => all * dimension, 1);

/** The launch of a generated workload's dispatch: its kernel, and its shape where the workload gives one. */
export function dispatchLaunch(kernel: KernelDescriptor, launch: KernelLaunch | undefined): ProfileLaunch {
  return {
    function: kernel.name,
    grid: launch === undefined ? null : [...launch.grid],
    block: launch === undefined ? null : [...launch.block],
    dynamicSharedBytes: launch === undefined ? null : (launch.sharedBytes ?? 0),
    clusterDims: launch?.clusterDims === undefined ? null : [...launch.clusterDims],
    registersPerThread: null,
  };
}

/** A captured launch, with the registers per thread its module's cubin gives (null where it does not). */
export function capturedLaunch(launch: CaptureLaunch, registersPerThread: number | null): ProfileLaunch {
  return {
    function: launch.function,
    grid: [...launch.shape.grid],
    block: [...launch.shape.block],
    dynamicSharedBytes: launch.shape.dynamicSharedBytes,
    clusterDims: launch.shape.clusterDims === null ? null : [...launch.shape.clusterDims],
    registersPerThread,
  };
}

/** A launch metric's value and ncu's unit for it. */
export interface LaunchMetricValue {
  readonly value: number;
  readonly unit: string;
}

/** How each launch metric kreplay computes follows from the launch (undefined: not known for it). */
const launchMetrics: Readonly<Record<string, (launch: ProfileLaunch) => LaunchMetricValue | undefined>> = {
  launch__grid_size: (launch) => (launch.grid === null ? undefined : { value: product(launch.grid), unit: '' }),
  launch__block_size: (launch) => (launch.block === null ? undefined : { value: product(launch.block), unit: '' }),
  launch__thread_count: (launch) => (launch.grid === null || launch.block === null ? undefined : { value: product(launch.grid) * product(launch.block), unit: 'thread' }),
  launch__cluster_size: (launch) => (launch.grid === null ? undefined : { value: launch.clusterDims === null ? 0 : product(launch.clusterDims), unit: '' }),
  launch__shared_mem_per_block_dynamic: (launch) => (launch.dynamicSharedBytes === null ? undefined : { value: launch.dynamicSharedBytes, unit: 'byte/block' }),
  launch__registers_per_thread: (launch) => (launch.registersPerThread === null ? undefined : { value: launch.registersPerThread, unit: 'register/thread' }),
};

/** Whether kreplay computes `name` from the launch rather than collecting it. */
export function isLaunchMetric(name: string): boolean {
  return Object.hasOwn(launchMetrics, name);
}

/** The value of launch metric `name` for `launch`, or undefined where the launch does not tell it. */
export function launchMetric(name: string, launch: ProfileLaunch | undefined): LaunchMetricValue | undefined {
  const compute = launchMetrics[name];
  return compute === undefined || launch === undefined ? undefined : compute(launch);
}

/** ncu's `(x, y, z)` of a grid or block; empty where it is not known. */
export function describeDimensions(dimensions: readonly number[] | null): string {
  return dimensions === null ? '' : `(${dimensions.join(', ')})`;
}
