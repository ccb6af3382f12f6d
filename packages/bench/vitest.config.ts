import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // .tsc/ holds `tsc --build` output (compiled copies of the tests); run the sources only.
    exclude: [...configDefaults.exclude, '.tsc/**'],
    // Generous: CI machines are small and shared; tests assert behaviour, never speed.
    testTimeout: 30_000,
  },
});
