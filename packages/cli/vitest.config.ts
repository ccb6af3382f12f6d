import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // .tsc/ holds `tsc --build` output (compiled copies of the tests); run the sources only.
    exclude: [...configDefaults.exclude, '.tsc/**'],
    // The CLI's tests run whole commands end to end; a shared 2-core machine can make one take seconds.
    testTimeout: 60_000,
    // One file at a time: the bench end-to-end test saturates the cores, and the replay tests' 5 s
    // timeouts should not depend on what runs beside them.
    fileParallelism: false,
  },
});
