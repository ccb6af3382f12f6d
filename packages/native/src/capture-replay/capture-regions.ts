import type { CaptureLaunch, CaptureMemoryKind } from '../capture-folder-types.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { formatAddress } from '../validate.js';

/** Where a replay makes a captured range: device memory, host memory, or a global of the loaded module. */
export type CapturePlacement = 'device' | 'host' | 'module-global';

/** A stretch of addresses a replay maps at its captured base: the union of the captured ranges over it. */
export interface CaptureRegion {
  readonly address: number;
  readonly bytes: number;
  readonly placement: 'device' | 'host';
}

/** An address range to reserve before the driver starts, as `openRuntime({ reserveAddresses })` takes it. */
export interface CaptureAddressReservation {
  readonly address: bigint;
  readonly bytes: number;
  /** A range of device memory (see AddressReservation.device). */
  readonly device?: boolean;
}

/** The granule reservations are widened to (openRuntime widens each range to it). */
const RESERVATION_ALIGNMENT = 2 * 2 ** 20;

/** How a range of `kind` is made again. */
export function placementOf(kind: CaptureMemoryKind): CapturePlacement {
  if (kind === 'module-global') return 'module-global';
  return kind === 'host-pinned' || kind === 'host-registered' ? 'host' : 'device';
}

/**
 * The regions to map for `launches`: every device and host range of every launch, overlapping ranges
 * of one placement merged (ranges that only touch stay apart, so the tracker keeps them as separate
 * allocations). Module globals are not among them: the driver places them when it loads the module.
 * @throws {CaptureFormatError} when a device range overlaps a host range.
 */
export function captureRegions(launches: readonly CaptureLaunch[]): CaptureRegion[] {
  const ranges: (CaptureRegion & { readonly file: string })[] = [];
  for (const launch of launches) {
    for (const range of launch.memory) {
      const placement = placementOf(range.kind);
      if (placement !== 'module-global' && range.bytes > 0) ranges.push({ address: range.base, bytes: range.bytes, placement, file: launch.file });
    }
  }
  ranges.sort((a, b) => a.address - b.address);
  const regions: { address: number; bytes: number; placement: 'device' | 'host'; file: string }[] = [];
  for (const range of ranges) {
    const last = regions.at(-1);
    if (last === undefined || range.address >= last.address + last.bytes) {
      regions.push({ ...range });
      continue;
    }
    if (last.placement !== range.placement) {
      throw new CaptureFormatError({
        packageName: 'native',
        component: 'capture',
        file: range.file,
        message: nativeMessage(
          'capture',
          `${range.file} has ${range.placement} memory at ${formatAddress(range.address)} (${range.bytes} bytes), which overlaps ${last.placement} memory at ${formatAddress(last.address)} (${last.bytes} bytes) of ${last.file}`,
          'Replay the launches apart (a capture of one launch), or capture the program again',
        ),
      });
    }
    last.bytes = Math.max(last.bytes, range.address + range.bytes - last.address);
  }
  return regions.map(({ address, bytes, placement }) => Object.freeze({ address, bytes, placement }));
}

/**
 * The address ranges to reserve before the driver creates its context, so that a replay can map
 * the captured memory of `launches` at its captured bases: each region widened to 2 MiB, those that
 * then overlap or touch merged. Pass them to `openRuntime({ driver: 'cuda', reserveAddresses })`.
 * @throws {CaptureFormatError} when a device range overlaps a host range.
 */
export function captureReservations(launches: readonly CaptureLaunch[]): CaptureAddressReservation[] {
  const windows: { start: number; end: number; device: boolean }[] = [];
  const regions = captureRegions(launches);
  // Device and host ranges apart: the driver takes device ranges over as it starts (AddressReservation.device).
  for (const device of [true, false]) {
    let last: { start: number; end: number; device: boolean } | undefined;
    for (const region of regions.filter((candidate) => (candidate.placement === 'device') === device)) {
      const start = Math.floor(region.address / RESERVATION_ALIGNMENT) * RESERVATION_ALIGNMENT;
      const end = Math.ceil((region.address + region.bytes) / RESERVATION_ALIGNMENT) * RESERVATION_ALIGNMENT;
      if (last !== undefined && start <= last.end) last.end = Math.max(last.end, end);
      else windows.push((last = { start, end, device }));
    }
  }
  return windows.map(({ start, end, device }) => Object.freeze({ address: BigInt(start), bytes: end - start, ...(device ? { device: true } : {}) }));
}
