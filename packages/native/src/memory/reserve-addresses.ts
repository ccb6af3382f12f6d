/**
 * openRuntime's `reserveAddresses`: the ranges checked, then reserved in the process (placeholder
 * mappings) before the driver library is loaded, with an error that names what holds a range that
 * could not be had.
 * @internal
 */
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { requireExactAddress } from './fixed-address-memory.js';
import type { NativeBinding } from '../addon/native-binding.js';
import type { DriverChoice } from '../runtime/runtime-types.js';
import { argumentError, formatAddress, requireArray, requireBoolean, requireByteCount, requireKnownKeys, requireObject } from '../errors/validate.js';

const component = 'runtime';

/** Ranges are reserved in whole granules of 2 MiB: the allocation granularity of CUDA devices. */
export const RESERVATION_GRANULE_BYTES = 2 ** 21;

export interface ResolvedReservation {
  readonly address: number;
  readonly bytes: number;
  /** Device memory will be placed there (cuda: its placeholder is given up as the driver starts, and the driver reserves the range right after). */
  readonly device: boolean;
}

/**
 * The ranges, checked.
 * @throws {ArgumentError} for a list that is not of `{ address: bigint, bytes }`, or with the `auto` driver.
 * @throws {UnsupportedError} with the host or hsa driver.
 */
export function requireReservations(driver: DriverChoice, value: unknown): readonly ResolvedReservation[] {
  if (value === undefined) return [];
  const list = requireArray(component, 'options.reserveAddresses', value);
  if (list.length > 0 && driver !== 'cuda') {
    if (driver === 'auto') {
      throw argumentError(component, 'options.driver', 'options.reserveAddresses needs the driver chosen before it opens, and options.driver is auto', "Pass driver: 'cuda'");
    }
    throw new UnsupportedError({
      packageName: 'native',
      component,
      driver,
      feature: 'address reservations',
      message: nativeMessage(component, `the ${driver} driver cannot place memory at chosen addresses, so it reserves none`, "Open the cuda driver (driver: 'cuda'), or leave reserveAddresses out"),
    });
  }
  return list.map((item, index) => {
    const argument = `options.reserveAddresses[${index}]`;
    const range = requireObject(component, argument, item);
    requireKnownKeys(component, argument, range, ['address', 'bytes', 'device']);
    const device = range['device'] === undefined ? false : requireBoolean(component, `${argument}.device`, range['device']);
    const address = requireExactAddress(component, `${argument}.address`, range['address']);
    const bytes = requireByteCount(component, `${argument}.bytes`, range['bytes'], false);
    if (address + bytes > Number.MAX_SAFE_INTEGER) {
      throw argumentError(component, argument, `${argument} runs past 2^53`, 'Pass ranges of the process address space');
    }
    return Object.freeze({ address, bytes, device });
  });
}

/**
 * Reserves the ranges in this process.
 * @throws {ArgumentError} for the first range that could not be reserved, naming the mappings that
 * hold it, and saying whether the driver library was already loaded.
 */
export function reserveRanges(binding: NativeBinding, ranges: readonly ResolvedReservation[]): void {
  if (ranges.length === 0) return;
  const packed = Float64Array.from(ranges.flatMap((range) => [range.address, range.bytes]));
  const outcome = binding.reserveAddresses(packed, RESERVATION_GRANULE_BYTES, Uint8Array.from(ranges.map((range) => (range.device ? 1 : 0))));
  const index = outcome.ranges.findIndex((range) => !range.reserved);
  if (index < 0) return;
  const failed = outcome.ranges[index]!;
  const given = ranges[index]!;
  const holders = failed.holders.length > 0 ? `; held by ${failed.holders.map((line) => `"${line.trim()}"`).join(', ')}` : '';
  const loaded = outcome.driverLoaded.cuda ? ' libcuda was already loaded in this process (by an earlier runtime or another library) before the reservation.' : '';
  throw argumentError(
    component,
    `options.reserveAddresses[${index}]`,
    `the range [${formatAddress(given.address)}, ${formatAddress(given.address + given.bytes)}) (reserved as [${formatAddress(failed.start)}, ${formatAddress(failed.end)})) cannot be reserved: ${failed.failure}${holders}.${loaded}`,
    'Run the replay in a fresh process that reserves the ranges before anything else loads (e.g. a child process started for it)',
  );
}
