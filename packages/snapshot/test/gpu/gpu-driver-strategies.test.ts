/**
 * The snapshot strategy kit on the GPU drivers: every shipped strategy in every tier, on each of
 * cuda and hsa that opens here: a real device, or `@kreplay/native`'s CPU stand-ins (`pnpm
 * test:fake-cuda`, `pnpm test:fake-hsa`). A driver that does not open is skipped with its reason.
 */
import { describe } from 'vitest';
import { openRuntime } from '@kreplay/native';
import { unavailableDriverReason } from '@kreplay/native/test';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '../../src/index.js';
import { testSnapshotStrategy } from '../../src/test.js';

for (const driver of ['cuda', 'hsa'] as const) {
  const open = () => openRuntime({ driver });
  const unavailable = await unavailableDriverReason(driver);
  describe.skipIf(unavailable !== null)(`strategies on the ${driver} driver${unavailable === null ? '' : ` (${unavailable})`}`, () => {
    testSnapshotStrategy({ name: `full (${driver})`, create: ({ tier }) => fullStrategy({ tier }), open });
    testSnapshotStrategy({ name: `write-set (${driver})`, create: ({ tier }) => writeSetStrategy({ tier }), open });
    testSnapshotStrategy({ name: `dirty-pages (${driver})`, create: ({ tier }) => dirtyPagesStrategy({ tier }), open });
    testSnapshotStrategy({
      name: `dirty-pages (${driver}, 4 KiB pages, every allocation a candidate)`,
      create: ({ tier }) => dirtyPagesStrategy({ tier, pageBytes: 4096, candidates: 'all' }),
      open,
      tiers: ['device', 'host-pinned'],
    });
  });
}
