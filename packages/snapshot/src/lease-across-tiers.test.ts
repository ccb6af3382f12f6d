import { afterEach, describe, expect, it } from 'vitest';
import { fullStrategy } from './full-strategy.js';
import { limitDeviceRoom } from './test/device-ballast.js';
import { allocateWorkload, replayByHand } from './test/replay-by-hand.js';
import { openStrategyFixture, randomBytes } from './test/strategy-fixture.js';
import type { StrategyFixture } from './test/strategy-fixture.js';

describe('snapshots across tiers', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => fixture?.dispose());

  it('stage whole in pinned host memory when the device room holds less than 1/16 of them', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 2, randomBytes);
    const big = fixture.agent.allocate(8 * 2 ** 20);
    limitDeviceRoom(fixture, 256 * 1024);
    const replay = await replayByHand(fixture, fullStrategy({ tier: 'auto' }), workload, 2, 1);
    expect(replay.account.staging.device).toBe(0);
    expect(replay.account.staging['host-pinned']).toBeGreaterThanOrEqual(big.bytes);
  });

  it('split at the room when it holds more', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 2, randomBytes);
    fixture.agent.allocate(2 * 2 ** 20);
    limitDeviceRoom(fixture, 256 * 1024);
    const replay = await replayByHand(fixture, fullStrategy({ tier: 'auto' }), workload, 2, 1);
    expect(replay.account.staging.device).toBe(256 * 1024);
    expect(replay.account.staging['host-pinned']).toBeGreaterThan(2 * 2 ** 20);
  });
});
