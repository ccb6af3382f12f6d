import { formatBytes } from '../format-units.js';
import { isReplayVariantName, replayVariants } from './replay-variants.js';

/** What the machine can hold for one run. */
export interface MemoryBounds {
  /** Free device memory of the agent (`agent.memoryInfo().freeBytes`). */
  readonly deviceFreeBytes: number;
  /** Free host RAM (`os.freemem()`). */
  readonly hostFreeBytes: number;
  /** True on the host driver, whose device memory is host RAM too. */
  readonly deviceIsHostMemory: boolean;
}

/** Device and host bytes a run needs at once. */
export interface MemoryNeed {
  readonly deviceBytes: number;
  readonly hostBytes: number;
}

/** Bytes of each of the three arrays of one background triad stream. */
export function backgroundArrayBytes(footprintBytes: number): number {
  const bytes = Math.min(64 * 2 ** 20, Math.max(2 ** 20, footprintBytes / 16));
  return Math.floor(bytes / 4096) * 4096;
}

/**
 * What a run of `variant` at a footprint needs: the workload, its background streams, and the
 * staging its strategy takes (conservatively the whole footprint, on the variant's tier; with the
 * `auto` tier, which spans tiers when the device is short, in host RAM).
 */
export function memoryNeed(variant: string, footprintBytes: number, streams: number): MemoryNeed {
  const background = (streams - 1) * 3 * backgroundArrayBytes(footprintBytes);
  const tier = isReplayVariantName(variant) ? replayVariants[variant].tier : 'device';
  const stagedOnDevice = tier === 'device';
  return {
    deviceBytes: footprintBytes + background + (stagedOnDevice ? footprintBytes : 0),
    hostBytes: stagedOnDevice ? 0 : footprintBytes,
  };
}

/** Why `need` does not fit in `bounds`, or null when it does (keeping 10% of device and 40% of host RAM free). */
export function whyNotFits(need: MemoryNeed, bounds: MemoryBounds): string | null {
  if (need.deviceBytes > 0.9 * bounds.deviceFreeBytes) {
    return `needs ${formatBytes(need.deviceBytes)} of device memory, the agent has ${formatBytes(bounds.deviceFreeBytes)} free`;
  }
  const hostBytes = need.hostBytes + (bounds.deviceIsHostMemory ? need.deviceBytes : 0);
  if (hostBytes > 0.6 * bounds.hostFreeBytes) {
    return `needs ${formatBytes(hostBytes)} of host RAM, the machine has ${formatBytes(bounds.hostFreeBytes)} free`;
  }
  return null;
}
