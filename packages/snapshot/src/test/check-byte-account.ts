import { expect } from 'vitest';
import type { ByteAccount } from '../byte-account.js';
import { bytesCopied } from '../byte-account.js';
import type { SnapshotStrategy } from '../snapshot-strategy.js';
import { meterCopies, type MovedBytes } from './copy-meter.js';
import { allocateWorkload, replayByHand } from './replay-by-hand.js';
import { randomBytes, type StrategyFixture } from './strategy-fixture.js';

const counts = ['deviceToDevice', 'deviceToHost', 'hostToDevice', 'hostToHost', 'hashed'] as const;

/**
 * Replays dispatches of the kit's workload through `strategy` with its queue metered (a first
 * dispatch, one right after it with nothing issued between, one after a write from the host) and
 * checks each snapshot's account: whole, non-negative counts, the staging it held, and exactly
 * the bytes that really moved by direction, and were hashed, on the dispatch's queue (see
 * {@link meterCopies}). `afterAllocating` runs once the workload is allocated (e.g. to limit the
 * free device memory).
 * @throws AssertionError naming the dispatch and the count that differs from what moved.
 */
export async function checkByteAccount(fixture: StrategyFixture, strategy: SnapshotStrategy, afterAllocating?: () => void): Promise<void> {
  const meter = meterCopies(fixture.runtime, fixture.tracker, fixture.queue);
  const metered: StrategyFixture = { ...fixture, dispatch: (kernel, args) => ({ ...fixture.dispatch(kernel, args), queue: meter.queue }) };
  const workload = await allocateWorkload(fixture, 3, randomBytes);
  afterAllocating?.();
  try {
    for (const [dispatch, what] of ['a first dispatch', 'a dispatch right after it', 'a dispatch after a host write'].entries()) {
      if (dispatch === 2) await fixture.agent.write(workload.buffer.address + 5000, randomBytes(9000, 41));
      const { account, snapshot } = await replayByHand(metered, strategy, workload, 3, 9 + dispatch);
      for (const count of counts) {
        expect(Number.isSafeInteger(account[count]) && account[count] >= 0, `${what}: ${count} is ${account[count]}, not a whole number >= 0`).toBe(true);
      }
      expect(bytesCopied(account), `${what}: bytes copied`).toBeGreaterThan(0);
      if (snapshot.ranges.length > 0) expect(account.staging[snapshot.tier], `${what}: staging held in ${snapshot.tier}`).toBeGreaterThan(0);
      expect(claimed(account), `${what} (capture, restores, finish): the account's counts against the bytes that moved and were hashed on the queue`).toEqual(meter.take());
    }
  } finally {
    workload.all.forEach((allocation) => allocation.free());
    meter.dispose();
  }
}

function claimed(account: ByteAccount): MovedBytes {
  return Object.fromEntries(counts.map((count) => [count, account[count]])) as unknown as MovedBytes;
}
