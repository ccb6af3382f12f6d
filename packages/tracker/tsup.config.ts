import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  // ESM (.js, .d.ts) and CommonJS (.cjs, .d.cts, for require()); `shims` gives the CommonJS build
  // an import.meta.url.
  format: ['esm', 'cjs'],
  shims: true,
  target: 'node20',
  // The d.ts build compiles only the entry: a composite project would want every file listed.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
