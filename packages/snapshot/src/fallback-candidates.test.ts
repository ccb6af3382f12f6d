import { afterEach, describe, expect, it } from 'vitest';
import type { KernelDescriptor } from '@kreplay/native';
import { dirtyPagesStrategy } from './dirty-pages-strategy.js';
import { fullStrategy } from './full-strategy.js';
import type { SnapshotStrategy } from './snapshot-strategy.js';
import { allocateWorkload } from './test/replay-by-hand.js';
import { openStrategyFixture, randomBytes, type StrategyFixture } from './test/strategy-fixture.js';
import { writeSetStrategy } from './write-set-strategy.js';

/** Reads a table of pointers (so what it reaches cannot be bounded) and writes `out`. */
const gather: KernelDescriptor = {
  name: 'gather',
  deterministic: true,
  parameters: [
    { name: 'table', type: 'pointer', access: 'read', indirect: true },
    { name: 'out', type: 'pointer', access: 'write' },
  ],
};

const strategies: Record<string, () => SnapshotStrategy> = {
  full: () => fullStrategy(),
  'write-set': () => writeSetStrategy(),
  'dirty-pages': () => dirtyPagesStrategy({ pageBytes: 4096 }),
};

describe('every allocation, when what a dispatch writes cannot be bounded', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => fixture?.dispose());

  for (const [name, make] of Object.entries(strategies)) {
    it(`${name}: includes the host buffers the dispatch may write, beside the agent's allocations`, async () => {
      fixture = await openStrategyFixture();
      const workload = await allocateWorkload(fixture, 1, randomBytes);
      const pinned = fixture.runtime.allocateHost(8192, { pinned: true });
      const unreached = fixture.runtime.allocateHost(4096, { pinned: true });
      const prepared = make().prepare(fixture.dispatch(gather, { table: workload.source.address, out: pinned.address }));
      expect(prepared.kind).toBe('ready');
      if (prepared.kind !== 'ready') return;
      const ranges = prepared.snapshot.ranges.map(({ address, bytes }) => ({ address, bytes }));
      expect(ranges).toContainEqual({ address: pinned.address, bytes: pinned.bytes });
      expect(ranges.some((range) => range.address === unreached.address)).toBe(false);
      expect(ranges).toHaveLength(4);
      prepared.snapshot.release();
      pinned.free();
      unreached.free();
    });
  }
});
