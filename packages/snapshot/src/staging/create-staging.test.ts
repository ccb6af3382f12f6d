import { afterEach, describe, expect, it } from 'vitest';
import { ArgumentError, hostStagingBudget } from '@kreplay/native';
import { openStrategyFixture } from '../test/strategy-fixture.js';
import type { StrategyFixture } from '../test/strategy-fixture.js';
import type { StagingOptions, StagingResult } from '../staging-types.js';
import { createStaging } from './create-staging.js';

function leased(result: StagingResult) {
  if (result.kind !== 'leased') throw new Error(`expected a lease, got: ${result.reason}`);
  return result.lease;
}

describe('createStaging', () => {
  let fixture: StrategyFixture | undefined;
  const open = async (options: StagingOptions = {}) => (fixture = await openStrategyFixture(undefined, options));
  afterEach(async () => fixture?.dispose());

  it('keeps released staging pooled and hands the same memory out again', async () => {
    const { staging, agent } = await open();
    const first = leased(staging.lease(agent, 100_000, 'host-pinned'));
    first.release();
    const second = leased(staging.lease(agent, 90_000, 'host-pinned'));
    expect(second.address).toBe(first.address);
    expect(staging.usage()).toMatchObject({ leasedBytes: 131072, pooledBytes: 0 });
    second.release();
    expect(staging.usage().pooledBytes).toBe(131072);
    staging.trim();
    expect(staging.usage().hostBytes).toBe(0);
    expect(staging.usage().hostHighWaterBytes).toBe(131072);
  });

  it('keeps a high-water mark per tier: host RAM, and device memory per agent', async () => {
    const { staging, agent } = await open();
    const device = leased(staging.lease(agent, 4 * 2 ** 20, 'device'));
    const pinned = leased(staging.lease(agent, 2 ** 20, 'host-pinned'));
    device.release();
    pinned.release();
    staging.trim();
    leased(staging.lease(agent, 2 ** 20, 'device')).release();
    expect(staging.usage()).toMatchObject({ deviceBytes: { [agent.id]: 2 ** 20 }, deviceHighWaterBytes: { [agent.id]: 4 * 2 ** 20 }, hostHighWaterBytes: 2 ** 20 });
  });

  it('frees staging on release with per-dispatch reuse, as the reference design does', async () => {
    const { staging, agent } = await open({ reuse: 'per-dispatch' });
    leased(staging.lease(agent, 100_000, 'host-pageable')).release();
    expect(staging.usage()).toMatchObject({ hostBytes: 0, hostHighWaterBytes: 100_000 });
  });

  it('tags staging memory excluded so no strategy snapshots it', async () => {
    const { staging, agent, tracker } = await open();
    const lease = leased(staging.lease(agent, 4096, 'device'));
    expect(tracker.find(lease.address)?.tags.has('excluded')).toBe(true);
    expect(tracker.footprintBytes(agent.id)).toBe(0);
  });

  it('moves to pinned host memory when the device reserve would be crossed, and declines past the host limit', async () => {
    const { staging, agent } = await open({ deviceReserveBytes: 255 * 2 ** 20, hostBytesLimit: 2 * 2 ** 20 });
    const lease = leased(staging.lease(agent, 2 * 2 ** 20, 'auto'));
    expect(lease.tier).toBe('host-pinned');
    const refused = staging.lease(agent, 2 * 2 ** 20, 'auto');
    expect(refused.kind).toBe('declined');
    if (refused.kind === 'declined') expect(refused.reason).toMatch(/reserve.*host limit|host limit/s);
  });

  it('gives idle pooled host memory back before declining over the host limit', async () => {
    const { staging, agent } = await open({ hostBytesLimit: 3 * 2 ** 20 });
    leased(staging.lease(agent, 2 * 2 ** 20, 'host-pinned')).release();
    const bigger = leased(staging.lease(agent, 3 * 2 ** 20, 'host-pageable'));
    expect(bigger.tier).toBe('host-pageable');
    expect(staging.usage().hostBytes).toBe(3 * 2 ** 20);
  });

  it('refuses bad options and sizes with an ArgumentError', async () => {
    const { staging, agent, runtime, tracker } = await open();
    expect(() => createStaging(runtime, tracker, { hostBytesLimit: -1 })).toThrow(ArgumentError);
    expect(() => createStaging(runtime, tracker, { reuse: 'never' as never })).toThrow(/reuse/);
    expect(() => staging.lease(agent, 0, 'device')).toThrow(ArgumentError);
    expect(() => staging.lease(agent, Number.NaN, 'device')).toThrow(/positive whole number/);
  });

  it('holds at most deviceBytesLimit of device staging per agent, giving idle slabs back first, and says so in the room', async () => {
    const { staging, agent } = await open({ deviceBytesLimit: 3 * 2 ** 20 });
    expect(staging.deviceRoomBytes?.(agent)).toBe(3 * 2 ** 20);
    const first = leased(staging.lease(agent, 2 ** 20, 'device'));
    expect(staging.deviceRoomBytes?.(agent)).toBe(2 * 2 ** 20);
    const refused = staging.lease(agent, 3 * 2 ** 20, 'device');
    expect(refused).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/over the device limit of 3145728/) });
    expect(leased(staging.lease(agent, 3 * 2 ** 20, 'auto')).tier).toBe('host-pinned');
    first.release();
    expect(leased(staging.lease(agent, 3 * 2 ** 20, 'device')).tier).toBe('device');
    expect(staging.usage().deviceBytes).toEqual({ [agent.id]: 3 * 2 ** 20 });
    expect(() => createStaging(fixture!.runtime, fixture!.tracker, { deviceBytesLimit: -1 })).toThrow(/deviceBytesLimit must be a whole number of bytes/);
  });

  it('keeps idle pooled device staging when a device lease cannot fit anyway', async () => {
    const { staging, agent } = await open();
    leased(staging.lease(agent, 2 ** 20, 'device')).release();
    expect(staging.lease(agent, 512 * 2 ** 20, 'device').kind).toBe('declined');
    expect(staging.usage().deviceBytes).toEqual({ [agent.id]: 2 ** 20 });
  });

  it('says how much a device lease can take: free memory and idle device staging, less the reserve and a 1/32 margin, in 64 KiB', async () => {
    const { staging, agent } = await open({ deviceReserveBytes: 100 * 2 ** 20 + 1000 });
    const free = () => agent.memoryInfo().freeBytes;
    const margin = agent.memoryInfo().totalBytes / 32;
    const roundDown = (bytes: number) => Math.floor(bytes / 65536) * 65536;
    expect(staging.deviceRoomBytes?.(agent)).toBe(roundDown(free() - 100 * 2 ** 20 - 1000 - margin));
    const held = leased(staging.lease(agent, 2 ** 20, 'device'));
    const whileHeld = staging.deviceRoomBytes?.(agent);
    expect(whileHeld).toBe(roundDown(free() - 100 * 2 ** 20 - 1000 - margin));
    held.release();
    expect(staging.deviceRoomBytes?.(agent)).toBe(roundDown(free() + 2 ** 20 - 100 * 2 ** 20 - 1000 - margin));
    expect(leased(staging.lease(agent, 2 ** 20, 'host-pinned')).tier).toBe('host-pinned');
    expect(staging.deviceRoomBytes?.(agent)).toBe(whileHeld! + 2 ** 20);
  });

  it("holds host staging by default within what this machine can hold beside the host driver's arenas, saying so when it declines", async () => {
    const { staging, agent, runtime } = await open();
    const budget = hostStagingBudget(runtime);
    expect(budget.arenaBytes).toBe(256 * 2 ** 20);
    expect(staging.usage().hostBytesLimit).toBe(budget.bytes);
    // Refused before anything is allocated.
    const refused = staging.lease(agent, budget.bytes + 4096, 'host-pinned');
    expect(refused.kind).toBe('declined');
    if (refused.kind === 'declined') {
      expect(refused.reason).toMatch(/over the host limit of \d+ \(by default what this machine holds: [\d.]+ GiB of physical memory less [\d.]+ GiB kept in reserve and 256 MiB of the host driver's device memory\)/);
    }
    expect(staging.usage().hostBytes).toBe(0);
    const given = createStaging(runtime, fixture!.tracker, { hostBytesLimit: 2 ** 20 });
    expect(given.usage().hostBytesLimit).toBe(2 ** 20);
    given.dispose();
  });
});
