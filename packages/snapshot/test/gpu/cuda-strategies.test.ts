/**
 * The snapshot strategy kit on the cuda driver: every shipped strategy in every tier, on a CUDA
 * device, or on test/fake-cuda (native's CPU stand-in for libcuda) with `pnpm test:fake-cuda`.
 * Skips where the cuda driver does not open.
 */
import { describe } from 'vitest';
import { DriverUnavailableError, openRuntime } from '@kreplay/native';
import { dirtyPagesStrategy, fullStrategy, writeSetStrategy } from '../../src/index.js';
import { testSnapshotStrategy } from '../../src/test.js';

const open = () => openRuntime({ driver: 'cuda' });
const unavailable = await open().then(
  async (runtime) => {
    await runtime.dispose();
    return null;
  },
  (error: unknown) => {
    if (error instanceof DriverUnavailableError) return error.reason;
    throw error;
  },
);

describe.skipIf(unavailable !== null)(`strategies on the cuda driver${unavailable === null ? '' : ` (${unavailable})`}`, () => {
  testSnapshotStrategy({ name: 'full (cuda)', create: ({ tier }) => fullStrategy({ tier }), open });
  testSnapshotStrategy({ name: 'write-set (cuda)', create: ({ tier }) => writeSetStrategy({ tier }), open });
  testSnapshotStrategy({ name: 'dirty-pages (cuda)', create: ({ tier }) => dirtyPagesStrategy({ tier }), open });
  testSnapshotStrategy({
    name: 'dirty-pages (cuda, 4 KiB pages, every allocation a candidate)',
    create: ({ tier }) => dirtyPagesStrategy({ tier, pageBytes: 4096, candidates: 'all' }),
    open,
    tiers: ['device', 'host-pinned'],
  });
});
