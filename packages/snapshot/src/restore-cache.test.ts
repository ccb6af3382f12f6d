import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceAllocation } from '@kreplay/native';
import { dirtyPagesStrategy } from './dirty-pages-strategy.js';
import { expectSameBytes } from './test/same-bytes.js';
import { limitDeviceRoom } from './test/device-ballast.js';
import { allocateWorkload, readAll, replayDispatchByHand, type Workload } from './test/replay-by-hand.js';
import { openStrategyFixture, randomBytes, type StrategyFixture } from './test/strategy-fixture.js';

const pageBytes = 4096;
const passes = 4;

describe('dirty-pages restore cache (host driver)', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => fixture?.dispose());

  /** The allocation of the workload at the highest address: the host part of a split mirror holds it. */
  const lastOf = (workload: Workload): DeviceAllocation => [...workload.all].sort((left, right) => right.address - left.address)[0]!;

  /** Replays a fill of `bytes` at the end of the target with `passes` passes; checks memory, returns the account. */
  async function replayFill(workload: Workload, strategy: ReturnType<typeof dirtyPagesStrategy>, bytes: number, value: number) {
    const target = lastOf(workload);
    const offset = target.bytes - bytes;
    const expected = await readAll(fixture!, workload);
    const words = new DataView(expected[workload.all.indexOf(target)]!.buffer);
    for (let at = offset; at < target.bytes; at += 4) words.setUint32(at, value, true);
    const args = { destination: target.address + offset, bytes, value };
    const replay = await replayDispatchByHand(fixture!, strategy, { kernel: fixture!.runtime.kernels.fill, args }, passes, () => readAll(fixture!, workload));
    for (const before of replay.beforePass) expectSameBytes(before, replay.beforePass[0]!, 'memory before a pass');
    expectSameBytes(replay.after, expected, 'memory after the dispatch');
    expect(replay.account.staging['host-pinned']).toBeGreaterThan(0);
    return replay.account;
  }

  it('gathers the pages the first pass wrote into device staging, so later restores of a host-tier part copy device to device', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 3, randomBytes);
    limitDeviceRoom(fixture, 256 * 1024);
    using strategy = dirtyPagesStrategy({ tier: 'auto', pageBytes, candidates: 'all' });
    expect(lastOf(workload).bytes).toBeGreaterThanOrEqual(16 * pageBytes);
    // The first dispatch copies everything into the mirror; the next ones show the restores alone.
    await replayFill(workload, strategy, 2 * pageBytes, 0x11111111);
    const small = await replayFill(workload, strategy, 2 * pageBytes, 0x22222222);
    // One restore from the host (the learning one), the gather, then passes - 2 restores from the cache.
    expect(small.hostToDevice).toBe(2 * pageBytes);
    expect(small.deviceToDevice).toBe(2 * pageBytes * (passes - 1));
    // More pages than the cache holds: later restores take the rest from the host.
    const large = await replayFill(workload, strategy, 12 * pageBytes, 0x33333333);
    const cached = large.hostToDevice + large.deviceToDevice - 12 * pageBytes * (passes - 1); // the gather's bytes
    expect(cached).toBeGreaterThan(0);
    expect(cached).toBeLessThan(12 * pageBytes);
    expect(large.hostToDevice).toBe(12 * pageBytes + (12 * pageBytes - cached) * (passes - 2));
  });

  it('takes no device staging for a cache when the host part holds only host memory, or the strategy stages on the host', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 4, randomBytes);
    limitDeviceRoom(fixture, 256 * 1024);
    using strategy = dirtyPagesStrategy({ tier: 'host-pinned', pageBytes, candidates: 'all' });
    const account = await replayFill(workload, strategy, 2 * pageBytes, 0x44444444);
    expect(account.staging.device).toBe(0);
    expect(account.deviceToDevice).toBe(0);
  });
});
