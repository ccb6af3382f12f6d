import type { DispatchContext } from './snapshot-strategy.js';
import type { StagingLease, StagingTierChoice } from './staging-types.js';
import type { CandidateRange } from './candidate-ranges.js';
import { splitRanges } from './tier-split.js';
import { restoreCacheBytes, withRestoreCache } from './restore-cache-lease.js';
import type { StagedPart } from './staged-part.js';

/**
 * A snapshot spans tiers only when the device part holds at least 1/16 of it: a smaller part would
 * add a part's operations to every window for little gain.
 */
const minimumDeviceShare = 16;

export type { StagedPart } from './staged-part.js';

/** The parts of a snapshot, each staged in one tier (device first), or why there is no room. */
export type PartsResult =
  | { readonly kind: 'leased'; readonly parts: readonly StagedPart[] }
  | { readonly kind: 'declined'; readonly reason: string };

/**
 * Leases the staging of `ranges`, as `stagingBytes` lays a set of ranges out. A tier other than
 * `auto` (or a staging without `deviceRoomBytes`) gives one part. `auto` gives one device part when
 * the whole fits above the reserve; else the prefix that fits the device room, cut at a `granule`
 * boundary, on the device and the rest in pinned host memory (when that prefix is at least 1/16 of
 * the whole); else one pinned host part. It never
 * holds part of a snapshot: when a part cannot be leased, every lease taken is given back.
 */
export function leaseAcrossTiers(
  dispatch: DispatchContext,
  ranges: readonly CandidateRange[],
  choice: StagingTierChoice,
  granule: number,
  stagingBytes: (ranges: readonly CandidateRange[]) => number,
  /** Whether a pinned host part gets a restore cache (a strategy that uses one, on a driver with compact page lists). */
  restoreCache = false,
): PartsResult {
  const { staging, agent } = dispatch;
  const withCache = restoreCache && dispatch.runtime.compactPageLists;
  const whole = stagingBytes(ranges);
  const single = (lease: StagingLease): PartsResult => ({ kind: 'leased', parts: [{ ranges, lease }] });
  if (choice !== 'auto' || staging.deviceRoomBytes === undefined) {
    const staged = staging.lease(agent, whole, choice);
    return staged.kind === 'declined' ? staged : single(staged.lease);
  }
  const room = staging.deviceRoomBytes(agent);
  let deviceRefusal = `agent ${agent.id} has room for ${room} bytes of device staging, not ${whole}`;
  if (whole <= room) {
    const onDevice = staging.lease(agent, whole, 'device');
    if (onDevice.kind === 'leased') return single(onDevice.lease);
    deviceRefusal = onDevice.reason;
  }
  // The room a restore cache of the host part takes, held back from the device part.
  const cacheBytes = withCache ? restoreCacheBytes({ hostRanges: splitRanges(ranges, granule, room, stagingBytes).host, room, granule, stagingBytes }) : 0;
  const split = splitRanges(ranges, granule, room - cacheBytes, stagingBytes);
  const deviceBytes = stagingBytes(split.device);
  const hostBytes = stagingBytes(split.host);
  if (deviceBytes > 0 && hostBytes > 0 && deviceBytes * minimumDeviceShare >= whole) {
    const device = staging.lease(agent, deviceBytes, 'device');
    if (device.kind === 'leased') {
      const host = staging.lease(agent, hostBytes, 'host-pinned');
      if (host.kind === 'leased') {
        const hostPart = withRestoreCache(dispatch, { ranges: split.host, lease: host.lease }, cacheBytes);
        return { kind: 'leased', parts: [{ ranges: split.device, lease: device.lease }, hostPart] };
      }
      device.lease.release();
      return { kind: 'declined', reason: `${deviceRefusal}; across tiers, the part past the device room: ${host.reason}` };
    }
  }
  const onHost = staging.lease(agent, whole, 'host-pinned');
  if (onHost.kind === 'leased') {
    const cache = withCache ? restoreCacheBytes({ hostRanges: ranges, room, granule, stagingBytes, shareOfRoom: 1 }) : 0;
    return { kind: 'leased', parts: [withRestoreCache(dispatch, { ranges, lease: onHost.lease }, cache)] };
  }
  return { kind: 'declined', reason: `${deviceRefusal}; ${onHost.reason}` };
}
