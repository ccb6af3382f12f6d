import { defineConfig } from 'vitest/config';

// The strategy kit on the GPU drivers (test/gpu/): one file at a time in one worker. A driver that
// does not open is skipped; `test:fake-cuda` and `test:fake-hsa` run it on native's CPU stand-ins.
export default defineConfig({
  test: {
    include: ['test/gpu/**/*.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
