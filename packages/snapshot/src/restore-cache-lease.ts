import type { DispatchContext } from './snapshot-strategy.js';
import type { CandidateRange } from './candidate-ranges.js';
import { isDeviceKind } from './copy-direction.js';
import type { StagedPart } from './staged-part.js';
import type { RestoreCache } from './restore-cache.js';

/**
 * The device room a host part's restore cache may take: at most 1/8 of the room, and 1/16 of the
 * host part (a kernel that writes more than 1/16 of what it may write restores the rest from the host).
 */
const shareOfRoomByDefault = 8;
const shareOfHostPart = 16;

/** What sizes a restore cache: the host part's ranges, the device room and how they are staged. */
export interface RestoreCacheRoom {
  readonly hostRanges: readonly CandidateRange[];
  readonly room: number;
  readonly granule: number;
  readonly stagingBytes: (ranges: readonly CandidateRange[]) => number;
  /** The cache takes at most 1/`shareOfRoom` of the room (default 8). */
  readonly shareOfRoom?: number;
}

/**
 * The bytes of a restore cache (see {@link RestoreCache}) for a host part, in whole granules; 0 when
 * the part holds no device memory, whose restores a device cache would not speed up.
 */
export function restoreCacheBytes({ hostRanges, room, granule, stagingBytes, shareOfRoom = shareOfRoomByDefault }: RestoreCacheRoom): number {
  if (!hostRanges.some((range) => isDeviceKind(range.kind))) return 0;
  const bytes = Math.min(room / shareOfRoom, stagingBytes(hostRanges) / shareOfHostPart);
  return Math.max(0, Math.floor(bytes / granule) * granule);
}

/** `part` with a device lease of `bytes` for its restore cache, or as it is when there is none to be had. */
export function withRestoreCache(dispatch: DispatchContext, part: StagedPart, bytes: number): StagedPart {
  if (bytes <= 0) return part;
  const cache = dispatch.staging.lease(dispatch.agent, bytes, 'device');
  return cache.kind === 'leased' ? { ...part, restoreCache: cache.lease } : part;
}
