import type { CaptureLaunch, CaptureMemoryKind } from '../capture/capture-folder-types.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { formatAddress } from '../errors/validate.js';

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
/** The windows CUDA reserves device memory in: it honours only hints aligned so (cuda-fixed-memory.hpp). */
const DEVICE_WINDOW = 32 * 2 ** 20;

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

/** Whether a region meets the 32 MiB window of one of `regions`' device regions. */
function insideDeviceWindows(regions: readonly CaptureRegion[]): (region: CaptureRegion) => boolean {
  const windows = regions
    .filter((region) => region.placement === 'device')
    .map((region) => [Math.floor(region.address / DEVICE_WINDOW) * DEVICE_WINDOW, Math.ceil((region.address + region.bytes) / DEVICE_WINDOW) * DEVICE_WINDOW] as const);
  return (region) => windows.some(([start, end]) => region.address < end && region.address + region.bytes > start);
}

/**
 * The order to map `regions` in: host memory away from device memory first (mmap'd pages, which a
 * window made before them would cover), then device memory (in its 32 MiB windows), then host
 * memory inside those windows (mapped there as CUDA host memory).
 */
export function placementOrder(regions: readonly CaptureRegion[]): CaptureRegion[] {
  const inDeviceWindow = insideDeviceWindows(regions);
  const rank = (region: CaptureRegion): number => (region.placement === 'device' ? 1 : inDeviceWindow(region) ? 2 : 0);
  return [...regions].sort((a, b) => rank(a) - rank(b));
}

/**
 * The address ranges to reserve before the driver creates its context, so that a replay can map
 * the captured memory of `launches` at its captured bases: each region widened to 2 MiB, those that
 * then overlap or touch merged. Ranges of device memory are marked `device`, and so are those of
 * host memory inside the 32 MiB window of a device range (CUDA puts a program's pinned memory among
 * its device memory): the driver reserves their windows as it starts and maps that host memory in
 * them. Pass them to `openRuntime({ driver: 'cuda', reserveAddresses })`.
 * @throws {CaptureFormatError} when a device range overlaps a host range.
 */
export function captureReservations(launches: readonly CaptureLaunch[]): CaptureAddressReservation[] {
  const windows: { start: number; end: number; device: boolean }[] = [];
  const regions = captureRegions(launches);
  const inDeviceWindow = insideDeviceWindows(regions);
  // Kinds apart: the driver takes the marked ranges over as it starts (AddressReservation.device).
  for (const device of [true, false]) {
    let last: { start: number; end: number; device: boolean } | undefined;
    for (const region of regions.filter((candidate) => (candidate.placement === 'device' || inDeviceWindow(candidate)) === device)) {
      const start = Math.floor(region.address / RESERVATION_ALIGNMENT) * RESERVATION_ALIGNMENT;
      const end = Math.ceil((region.address + region.bytes) / RESERVATION_ALIGNMENT) * RESERVATION_ALIGNMENT;
      if (last !== undefined && start <= last.end) last.end = Math.max(last.end, end);
      else windows.push((last = { start, end, device }));
    }
  }
  return windows.map(({ start, end, device }) => Object.freeze({ address: BigInt(start), bytes: end - start, ...(device ? { device: true } : {}) }));
}
