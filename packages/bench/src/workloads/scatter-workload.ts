import { benchArgumentError } from '../argument-error.js';
import type { Agent, DeviceAllocation, KernelArguments, KernelDescriptor } from '@kreplay/native';

/** Options of {@link createScatterWorkload}. */
export interface ScatterWorkloadOptions {
  /** Bytes of device memory the workload holds. */
  readonly footprintBytes: number;
  /** Fraction of the footprint's pages each dispatch writes, in (0, 1]. */
  readonly writeFraction: number;
  /** Share of the footprint in the read-write state buffer the writes scatter over. Default 0.8. */
  readonly stateShare?: number;
  /** Share read by the kernel (its weights). Default 0.15; the rest is memory the kernel never touches. */
  readonly inputShare?: number;
  /** Page granularity of the writes. Default 65536. */
  readonly pageBytes?: number;
}

/** One dispatch of the workload: the kernel and its arguments. */
export interface WorkloadDispatch {
  readonly kernel: KernelDescriptor;
  readonly args: KernelArguments;
}

/** A workload's memory and its dispatches. */
export interface ScatterWorkload {
  readonly footprintBytes: number;
  readonly allocations: readonly DeviceAllocation[];
  readonly state: DeviceAllocation;
  readonly input: DeviceAllocation;
  /** The i-th dispatch: a scatter-write of fresh pages (the seed changes with i). */
  dispatch(index: number): WorkloadDispatch;
  /** Frees the workload's memory. */
  free(): void;
}

function checkShare(name: string, value: number, allowZero: boolean): number {
  if (!Number.isFinite(value) || value > 1 || value < 0 || (!allowZero && value === 0)) {
    throw benchArgumentError('workload', name, `${name} must be a number in ${allowZero ? '[0' : '(0'}, 1], got ${String(value)}`, 'Pass a fraction such as 0.01');
  }
  return value;
}

/**
 * Checks the options of {@link createScatterWorkload} without an agent, so a caller can refuse them
 * before opening a driver, and returns them with their defaults.
 * @throws ArgumentError when an option is out of range (its `argument` names the option).
 */
export function validateScatterWorkloadOptions(options: ScatterWorkloadOptions): Required<ScatterWorkloadOptions> {
  const pageBytes = options.pageBytes ?? 65536;
  const writeFraction = checkShare('writeFraction', options.writeFraction, false);
  const stateShare = checkShare('stateShare', options.stateShare ?? 0.8, false);
  const inputShare = checkShare('inputShare', options.inputShare ?? 0.15, true);
  if (!Number.isSafeInteger(options.footprintBytes) || options.footprintBytes < 4 * pageBytes) {
    throw benchArgumentError('workload', 'footprintBytes', `footprintBytes must be a whole number >= ${4 * pageBytes}, got ${String(options.footprintBytes)}`, 'Pass a larger footprint');
  }
  if (stateShare + inputShare > 1) {
    throw benchArgumentError('workload', 'stateShare', `stateShare + inputShare must be <= 1, got ${stateShare + inputShare}`, 'Lower one of them');
  }
  return { footprintBytes: options.footprintBytes, writeFraction, stateShare, inputShare, pageBytes };
}

/**
 * The default replay workload: the footprint spread over a few allocations; the kernel reads its
 * input and writes `writeFraction` of the footprint's pages, scattered over a large read-write
 * state buffer. So write-set cannot shrink it much, but dirty-pages can.
 * @throws ArgumentError when an option is out of range.
 */
export async function createScatterWorkload(agent: Agent, options: ScatterWorkloadOptions): Promise<ScatterWorkload> {
  const { pageBytes, writeFraction, stateShare, inputShare } = validateScatterWorkloadOptions(options);
  const roundToPages = (bytes: number) => Math.max(pageBytes, Math.floor(bytes / pageBytes) * pageBytes);
  const stateBytes = roundToPages(options.footprintBytes * stateShare);
  const inputBytes = inputShare === 0 ? 0 : roundToPages(options.footprintBytes * inputShare);
  const restBytes = options.footprintBytes - stateBytes - inputBytes;
  const sizes = [stateBytes, inputBytes, restBytes].filter((bytes) => bytes > 0);
  const allocations = sizes.map((bytes) => agent.allocate(bytes));
  const [state, input = state] = allocations as [DeviceAllocation, DeviceAllocation?];
  await using queue = agent.createQueue();
  allocations.forEach((allocation, index) =>
    queue.enqueueKernel(agent.runtime.kernels.fill, { destination: allocation.address, bytes: allocation.bytes, value: 0x9e3779b9 + index }),
  );
  await queue.synchronize();
  const fraction = Math.min(1, (writeFraction * options.footprintBytes) / stateBytes);
  return {
    footprintBytes: options.footprintBytes,
    allocations,
    state,
    input,
    dispatch: (index) => ({
      kernel: agent.runtime.kernels.scatterWrite,
      args: {
        buffer: state.address,
        bytes: state.bytes,
        pageBytes,
        fraction,
        seed: 0x5eed + index,
        source: input.address,
        sourceBytes: inputBytes,
      },
    }),
    free: () => allocations.forEach((allocation) => allocation.free()),
  };
}
