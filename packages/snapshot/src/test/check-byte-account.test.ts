import { afterEach, describe, expect, it } from 'vitest';
import type { ByteAccount } from '../byte-account.js';
import { dirtyPagesStrategy } from '../dirty-pages-strategy.js';
import { fullStrategy } from '../full-strategy.js';
import type { SnapshotStrategy } from '../snapshot-strategy.js';
import type { StagingTierChoice } from '../staging-types.js';
import { totalBytes } from '../staging-layout.js';
import { writeSetStrategy } from '../write-set-strategy.js';
import { checkByteAccount } from './check-byte-account.js';
import { openStrategyFixture, type StrategyFixture } from './strategy-fixture.js';

/**
 * `full` whose restore enqueues nothing, yet whose account claims every restore as `full` would:
 * the ranges' bytes, staging to memory, once per restore.
 */
function restoresNothing(tier: 'device' | 'host-pinned'): SnapshotStrategy {
  const inner = fullStrategy({ tier });
  const direction: keyof ByteAccount = tier === 'device' ? 'deviceToDevice' : 'hostToDevice';
  return {
    specificationVersion: inner.specificationVersion,
    name: 'restores nothing',
    prepare(dispatch) {
      const prepared = inner.prepare(dispatch);
      if (prepared.kind !== 'ready') return prepared;
      const real = prepared.snapshot;
      let restores = 0;
      const snapshot = {
        ...real,
        capture: () => real.capture(),
        restore: () => void (restores += 1),
        finish: () => real.finish(),
        release: (end?: Parameters<typeof real.release>[0]) => real.release(end),
        account: (): ByteAccount => {
          const account = real.account();
          return { ...account, [direction]: (account[direction] as number) + restores * totalBytes(real.ranges) };
        },
      };
      return { kind: 'ready', snapshot };
    },
  };
}

describe('checkByteAccount', () => {
  let fixture: StrategyFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it.each(['device', 'host-pinned'] as const)('fails a strategy whose restore moves nothing but whose account claims it did (%s)', async (tier) => {
    fixture = await openStrategyFixture();
    await expect(checkByteAccount(fixture, restoresNothing(tier))).rejects.toThrow(/restore|moved/);
  });

  const shipped: [string, (tier: StagingTierChoice) => SnapshotStrategy][] = [
    ['full', (tier) => fullStrategy({ tier })],
    ['write-set', (tier) => writeSetStrategy({ tier })],
    ['dirty-pages', (tier) => dirtyPagesStrategy({ tier, pageBytes: 4096 })],
    ['dirty-pages, every allocation', (tier) => dirtyPagesStrategy({ tier, candidates: 'all' })],
  ];
  for (const [name, create] of shipped) {
    it.each(['device', 'host-pinned', 'host-pageable'] as const)(`passes ${name} (%s)`, async (tier) => {
      fixture = await openStrategyFixture();
      const strategy = create(tier);
      await checkByteAccount(fixture, strategy);
      strategy.dispose?.();
    });
  }
});
