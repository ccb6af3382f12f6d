import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // `tsc --build` emits into .tsc/; its compiled tests are not tests of their own.
    exclude: [...configDefaults.exclude, '.tsc/**'],
    testTimeout: 20_000,
  },
});
