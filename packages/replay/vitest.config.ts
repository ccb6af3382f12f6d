import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // `tsc --build` emits into .tsc/; its compiled tests are not tests of their own.
    // test/gpu/ runs the engine on the cuda driver, apart: `test:fake-cuda`, `test:gpu` (vitest.gpu.config.ts).
    exclude: [...configDefaults.exclude, '.tsc/**', 'test/gpu/**'],
    testTimeout: 20_000,
  },
});
