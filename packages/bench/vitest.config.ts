import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // .tsc/ holds `tsc --build` output (compiled copies of the tests); run the sources only.
    exclude: [...configDefaults.exclude, '.tsc/**'],
  },
});
