/**
 * What `kreplay profile` knows of a profiled launch besides its counters and its grid and block (the
 * row's `grid` and `block`): the kernel's symbol and the resources the launch asks for, as ncu prints
 * them beside a result; and the launch statistics computed from them (ncu's `launch__*` metrics come
 * from the launch, not from counters).
 */
import type { CaptureFolder, KernelDescriptor, KernelLaunch } from '@kreplay/native';
import { capturedKernelCode } from '@kreplay/native';
import type { ProfileDocumentRow } from '@kreplay/bench';

/** A profiled launch's kernel and what it asks for beyond its shape (`ProfileRow.launch`). */
export interface ProfileLaunch {
  /** The function's name as the module holds it (mangled for C++). */
  readonly function: string;
  /** Dynamic shared memory per block, in bytes; null where the workload does not say. */
  readonly dynamicSharedBytes: number | null;
  /** Cluster dimensions, null without clusters (or where the workload does not say). */
  readonly clusterDims: readonly [number, number, number] | null;
  /**
   * Registers per thread: the driver's count for the function it loaded where known (what ncu
   * reports), else the count in the module's cubin, which can be lower; null when neither says.
   */
  readonly registersPerThread: number | null;
}

/** A row as the launch statistics read it: its shape and its launch. */
type LaunchedRow = Pick<ProfileDocumentRow, 'grid' | 'block'> & { readonly launch?: ProfileLaunch };

const product = (dimensions: readonly number[]): number => dimensions.reduce((all, dimension) => all * dimension, 1);

/**
 * A generated workload's dispatch: its kernel, its shape where the workload gives one (the row's
 * grid and block), and `registersPerThread` as the driver loaded the kernel, where it says.
 */
export function dispatchLaunch(kernel: KernelDescriptor, launch: KernelLaunch | undefined, registersPerThread: number | null = null): Pick<ProfileDocumentRow, 'grid' | 'block'> & { readonly launch: ProfileLaunch } {
  return {
    ...(launch && { grid: [...launch.grid] as [number, number, number], block: [...launch.block] as [number, number, number] }),
    launch: {
      function: kernel.name,
      dynamicSharedBytes: launch === undefined ? null : (launch.sharedBytes ?? 0),
      clusterDims: launch?.clusterDims === undefined ? null : [...launch.clusterDims],
      registersPerThread,
    },
  };
}

/**
 * The rows of a capture's profile with each launch's kernel and resources. Registers per thread
 * are the driver's count of the function the replay loaded (`loadedRegisters`, by function), else
 * the count in its module's cubin for the capture's architecture, where it holds one.
 */
export async function withCapturedLaunches<Row extends { readonly dispatch: number }>(
  rows: readonly Row[],
  folder: CaptureFolder,
  loadedRegisters: ReadonlyMap<string, number> = new Map(),
): Promise<(Row & { readonly launch?: ProfileLaunch })[]> {
  const launches = new Map(folder.launches.map((launch) => [launch.sequence, launch]));
  const code = await capturedKernelCode(folder);
  return rows.map((row) => {
    const launch = launches.get(row.dispatch);
    if (launch === undefined) return row;
    return {
      ...row,
      launch: {
        function: launch.function,
        dynamicSharedBytes: launch.shape.dynamicSharedBytes,
        clusterDims: launch.shape.clusterDims === null ? null : [...launch.shape.clusterDims],
        registersPerThread: loadedRegisters.get(launch.function) ?? code.get(launch.function)?.registers ?? null,
      },
    };
  });
}

/** A launch metric's value and ncu's unit for it. */
export interface LaunchMetricValue {
  readonly value: number;
  readonly unit: string;
}

/** How each launch metric kreplay computes follows from the row (undefined: not known for it). */
const launchMetrics: Readonly<Record<string, (row: LaunchedRow) => LaunchMetricValue | undefined>> = {
  launch__grid_size: (row) => (row.grid === undefined ? undefined : { value: product(row.grid), unit: '' }),
  launch__block_size: (row) => (row.block === undefined ? undefined : { value: product(row.block), unit: '' }),
  launch__thread_count: (row) => (row.grid === undefined || row.block === undefined ? undefined : { value: product(row.grid) * product(row.block), unit: 'thread' }),
  launch__cluster_size: (row) => (row.grid === undefined || row.launch === undefined ? undefined : { value: row.launch.clusterDims === null ? 0 : product(row.launch.clusterDims), unit: '' }),
  launch__shared_mem_per_block_dynamic: (row) => (row.launch?.dynamicSharedBytes == null ? undefined : { value: row.launch.dynamicSharedBytes, unit: 'byte/block' }),
  launch__registers_per_thread: (row) => (row.launch?.registersPerThread == null ? undefined : { value: row.launch.registersPerThread, unit: 'register/thread' }),
};

/** Whether kreplay computes `name` from the launch rather than collecting it. */
export function isLaunchMetric(name: string): boolean {
  return Object.hasOwn(launchMetrics, name);
}

/** The value of launch metric `name` for `row`, or undefined where the launch does not tell it. */
export function launchMetric(name: string, row: LaunchedRow): LaunchMetricValue | undefined {
  return launchMetrics[name]?.(row);
}

/** ncu's `(x, y, z)` of a grid or block; empty where it is not known. */
export function describeDimensions(dimensions: readonly number[] | undefined): string {
  return dimensions === undefined ? '' : `(${dimensions.join(', ')})`;
}
