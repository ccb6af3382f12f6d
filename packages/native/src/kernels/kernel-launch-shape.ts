/**
 * Validation and packing of a user kernel's launch shape: `[grid x, y, z, block x, y, z,
 * sharedBytes, cluster x, y, z]` (cluster 0, 0, 0: no clusters).
 * @internal
 */
import type { KernelLaunch } from '../runtime/runtime-types.js';
import { argumentError, requireArray, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';

const gridLimits = [2 ** 31 - 1, 65535, 65535] as const;
const blockLimits = [1024, 1024, 64] as const;
const clusterLimits = [1024, 1024, 1024] as const;

function requireTriple(component: string, argument: string, value: unknown, limits: readonly number[]): number[] {
  const list = requireArray(component, argument, value);
  if (list.length !== 3) {
    throw argumentError(component, argument, `${argument} has ${list.length} numbers`, 'Pass [x, y, z]');
  }
  return list.map((item, index) => requireInteger(component, `${argument}[${index}]`, item, 1, limits[index]!));
}

/**
 * @throws {ArgumentError} for a launch that is not `{ grid, block, sharedBytes?, clusterDims? }` within the limits
 * of KernelLaunch (more than 1024 threads per block included).
 */
export function packKernelLaunchShape(component: string, value: unknown): Uint32Array {
  const launch = requireObject(component, 'launch', value) as Partial<KernelLaunch> & Record<string, unknown>;
  requireKnownKeys(component, 'launch', launch, ['grid', 'block', 'sharedBytes', 'clusterDims']);
  const grid = requireTriple(component, 'launch.grid', launch.grid, gridLimits);
  const block = requireTriple(component, 'launch.block', launch.block, blockLimits);
  if (block[0]! * block[1]! * block[2]! > 1024) {
    throw argumentError(component, 'launch.block', `launch.block has ${block[0]! * block[1]! * block[2]!} threads`, 'Use at most 1024 threads per block');
  }
  const sharedBytes = requireInteger(component, 'launch.sharedBytes', launch.sharedBytes ?? 0, 0, 2 ** 32 - 1);
  const cluster = launch.clusterDims === undefined ? [0, 0, 0] : requireTriple(component, 'launch.clusterDims', launch.clusterDims, clusterLimits);
  return Uint32Array.of(...grid, ...block, sharedBytes, ...cluster);
}
