import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // .tsc/ holds `tsc --build` output (compiled copies of the tests); run the sources only.
    // test/gpu/ needs a GPU and runs apart, with one worker: `test:gpu` (vitest.gpu.config.ts).
    exclude: [...configDefaults.exclude, '.tsc/**', 'test/gpu/**'],
  },
});
