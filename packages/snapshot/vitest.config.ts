import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // .tsc/ holds `tsc --build` output (compiled copies of the tests); run the sources only.
    // test/gpu/ runs the kit on the cuda driver, apart: `test:fake-cuda`, `test:gpu` (vitest.gpu.config.ts).
    exclude: [...configDefaults.exclude, '.tsc/**', 'test/gpu/**'],
    // Generous: CI machines are small and shared; tests assert behaviour, never speed.
    testTimeout: 30_000,
  },
});
