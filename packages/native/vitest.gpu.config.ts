import { defineConfig } from 'vitest/config';

// The GPU tests (test/gpu/): one file at a time in one worker, so they never compete for the
// device, with time for large buffers. They skip when no CUDA device is found.
export default defineConfig({
  test: {
    include: ['test/gpu/**/*.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
