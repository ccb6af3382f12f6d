import type { DeviceAllocation } from '@kreplay/native';
import type { StrategyFixture } from './strategy-fixture.js';

/**
 * Takes the fixture agent's device room (what staging would lease on the device, see
 * `Staging.deviceRoomBytes`) down to about `roomBytes` with one allocation tagged `excluded` (no
 * strategy snapshots it), so that a snapshot larger than the room spans tiers. What staging keeps
 * back (the reserve and its margin) stays free. Free the returned allocation to give the memory back.
 * @throws Error when the agent's room is not larger than `roomBytes` already.
 */
export function limitDeviceRoom(fixture: StrategyFixture, roomBytes: number): DeviceAllocation {
  const { freeBytes } = fixture.agent.memoryInfo();
  const room = fixture.staging.deviceRoomBytes?.(fixture.agent) ?? freeBytes;
  if (room <= roomBytes) throw new Error(`[snapshot] [test kit] agent ${fixture.agent.id} has a device room of only ${room} bytes, not more than ${roomBytes}. Give it more device memory.`);
  const ballast = fixture.agent.allocate(room - roomBytes);
  fixture.tracker.tag(ballast.address, 'excluded');
  return ballast;
}
