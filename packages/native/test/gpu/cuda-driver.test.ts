/**
 * The driver conformance kit on the cuda driver, at two page sizes (a warp per page, and a block
 * per page), with sizes that exercise the GPU. Skips when no CUDA device is found.
 * Run with `pnpm --filter @kreplay/native test:gpu` (one worker).
 */
import { describe, it } from 'vitest';
import { openRuntime } from '../../src/index.js';
import { testDriver } from '../../src/test.js';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
const KiB = 1024;
const MiB = 1024 * KiB;

if (!cuda.available) {
  describe.skip(`cuda driver conformance (${cuda.reason})`, () => {
    it('needs a CUDA device', () => undefined);
  });
} else {
  const capabilities = { multipleAgents: cuda.agents >= 2, faultInjection: true, streamOrderedMemory: true };
  const open = () => openRuntime({ driver: 'cuda' });
  testDriver({
    name: 'cuda, 4 KiB pages',
    open,
    capabilities,
    sizes: cuda.fake ? { smallBytes: 64 * KiB, largeBytes: 2 * MiB, pageBytes: 4 * KiB } : { smallBytes: 256 * KiB, largeBytes: 32 * MiB, pageBytes: 4 * KiB },
  });
  testDriver({
    name: 'cuda, 64 KiB pages',
    open,
    capabilities,
    sizes: cuda.fake ? { smallBytes: 512 * KiB, largeBytes: 2 * MiB, pageBytes: 64 * KiB } : { smallBytes: 1 * MiB, largeBytes: 64 * MiB, pageBytes: 64 * KiB },
  });
}
