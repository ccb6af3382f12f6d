/**
 * Address ranges for the fixed-address tests: candidates far from where Linux puts mappings
 * (below the mmap area, above the program and its heap), and the lines of /proc/self/maps.
 */
import { readFileSync } from 'node:fs';
import { DriverError, type Runtime } from '../../src/index.js';

/** 2 MiB: the granule ranges are reserved and mapped in. */
export const GRANULE = 2n ** 21n;

/**
 * 32 MiB: device memory at an address holds the window of this size around it (CUDA honours only
 * reservation hints aligned to it), so host memory placed after it goes a window or more away.
 */
export const DEVICE_WINDOW = 2n ** 25n;

/** Candidate bases, 1 GiB apart, from 0x3f0000000000 (63 TiB). */
export function candidateAddresses(count = 16): bigint[] {
  return Array.from({ length: count }, (_, index) => 0x3f0000000000n + BigInt(index) * 2n ** 30n);
}

/** The mappings of this process as [start, end, line]. */
export function processMappings(): { readonly start: bigint; readonly end: bigint; readonly line: string }[] {
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [range] = line.split(' ');
      const [start, end] = range!.split('-');
      return { start: BigInt(`0x${start}`), end: BigInt(`0x${end}`), line };
    });
}

/** Whether nothing of this process is mapped in [start, end). */
export function unmapped(start: bigint, end: bigint): boolean {
  return processMappings().every((mapping) => mapping.end <= start || mapping.start >= end);
}

/**
 * A 2 MiB-aligned address inside the driver's own device address space, free again: where cuMemAlloc
 * put `bytes` (plus a granule to align in), freed. The tests try such an address first: it is where
 * a captured program's memory was.
 */
export async function driverChosenAddress(runtime: Runtime, bytes: number): Promise<bigint> {
  const agent = runtime.agents[0]!;
  const allocation = agent.allocate(bytes + Number(GRANULE));
  const address = ((BigInt(allocation.address) + GRANULE - 1n) / GRANULE) * GRANULE;
  allocation.free();
  const queue = agent.createQueue();
  await queue.synchronize(); // the free is released once the queues have passed it
  await queue.dispose();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return address;
}

/**
 * The first candidate whose 1 GiB window is unmapped here, for `place` to use; retries past ranges
 * CUDA cannot have. With `runtime`, an address the driver itself chose comes first.
 */
export async function placeAtFreeAddress<T>(place: (address: bigint) => Promise<T>, runtime?: Runtime): Promise<{ address: bigint; placed: T }> {
  const first = runtime === undefined ? [] : [await driverChosenAddress(runtime, 64 * 2 ** 20)];
  for (const address of [...first, ...candidateAddresses()]) {
    if (!unmapped(address, address + 2n ** 30n)) continue;
    try {
      return { address, placed: await place(address) };
    } catch (error) {
      if (error instanceof DriverError && error.code === 'address-taken') continue;
      throw error;
    }
  }
  throw new Error('no candidate address range was free in this process');
}
