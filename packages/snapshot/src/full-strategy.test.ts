import { afterEach, describe, expect, it } from 'vitest';
import { bytesCopied } from './byte-account.js';
import { fullStrategy } from './full-strategy.js';
import { allocateWorkload, replayByHand } from './test/replay-by-hand.js';
import { openStrategyFixture, randomBytes } from './test/strategy-fixture.js';
import type { StrategyFixture } from './test/strategy-fixture.js';
import { testSnapshotStrategy } from './test/test-snapshot-strategy.js';

testSnapshotStrategy({ name: 'full', create: ({ tier }) => fullStrategy({ tier }) });

describe('full', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => fixture?.dispose());

  it('copies the whole footprint once per pass, in the directions its tier implies', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 4, randomBytes);
    const footprint = workload.all.reduce((sum, allocation) => sum + allocation.bytes, 0);
    const pinned = await replayByHand(fixture, fullStrategy({ tier: 'host-pinned' }), workload, 5, 1);
    expect(bytesCopied(pinned.account)).toBe(5 * footprint);
    expect(pinned.account.deviceToHost).toBe(footprint);
    expect(pinned.account.hostToDevice).toBe(4 * footprint);
    const device = await replayByHand(fixture, fullStrategy({ tier: 'device' }), workload, 2, 1);
    expect(device.account.deviceToDevice).toBe(2 * footprint);
  });
});
