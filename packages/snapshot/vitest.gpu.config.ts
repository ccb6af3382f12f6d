import { defineConfig } from 'vitest/config';

// The strategy kit on the cuda driver (test/gpu/): one file at a time in one worker. It skips when
// the cuda driver does not open; `test:fake-cuda` runs it on native's CPU stand-in for libcuda.
export default defineConfig({
  test: {
    include: ['test/gpu/**/*.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
