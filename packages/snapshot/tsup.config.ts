import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/test.ts'],
  // ESM (.js, .d.ts) and CommonJS (.cjs, .d.cts, for require()); the test kit is exported as ESM only
  // (it imports vitest, which has no CommonJS build). `shims` gives the CommonJS build an
  // import.meta.url.
  format: ['esm', 'cjs'],
  shims: true,
  target: 'node20',
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
