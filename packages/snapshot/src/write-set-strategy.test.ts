import { afterEach, describe, expect, it } from 'vitest';
import type { KernelDescriptor } from '@kreplay/native';
import { bytesCopied } from './byte-account.js';
import { testSnapshotStrategy } from './test/test-snapshot-strategy.js';
import { allocateWorkload, replayByHand } from './test/replay-by-hand.js';
import { openStrategyFixture, randomBytes } from './test/strategy-fixture.js';
import type { StrategyFixture } from './test/strategy-fixture.js';
import { writeSetStrategy } from './write-set-strategy.js';

testSnapshotStrategy({ name: 'write-set', create: ({ tier }) => writeSetStrategy({ tier }) });

describe('write-set', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => fixture?.dispose());

  it('copies only the allocations the kernel can write', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 2, randomBytes);
    const { account, snapshot } = await replayByHand(fixture, writeSetStrategy({ tier: 'device' }), workload, 3, 5);
    expect(snapshot.ranges).toEqual([{ address: workload.buffer.address, bytes: workload.buffer.bytes, kind: 'device' }]);
    expect(bytesCopied(account)).toBe(3 * workload.buffer.bytes);
  });

  it('falls back to full, and says why, when an argument reaches memory indirectly', async () => {
    fixture = await openStrategyFixture();
    const workload = await allocateWorkload(fixture, 3, randomBytes);
    const gather: KernelDescriptor = {
      name: 'gather',
      deterministic: true,
      parameters: [{ name: 'table', type: 'pointer', access: 'read', indirect: true }],
    };
    const prepared = writeSetStrategy().prepare(fixture.dispatch(gather, { table: workload.source.address }));
    expect(prepared.kind).toBe('ready');
    if (prepared.kind !== 'ready') return;
    expect(prepared.snapshot.ranges).toHaveLength(3);
    expect(prepared.snapshot.notes.join(' ')).toMatch(/fell back to full/);
    prepared.snapshot.release();
  });
});
