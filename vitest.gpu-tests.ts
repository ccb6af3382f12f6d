/**
 * The options every package's GPU tests (test/gpu/) run with: one file at a time in one worker, so
 * they never compete for the device, with time for large buffers. Each vitest.gpu.config.ts spreads
 * them into its `test` options.
 */
export const gpuTests = {
  include: ['test/gpu/**/*.test.ts'],
  fileParallelism: false,
  maxWorkers: 1,
  testTimeout: 120_000,
  hookTimeout: 120_000,
};
