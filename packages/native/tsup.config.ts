import { defineConfig } from 'tsup';

export default defineConfig({
  // binding-probe: run by scripts/install.mjs to check that an addon loads; not an export.
  entry: ['src/index.ts', 'src/test.ts', 'src/binding-probe.ts'],
  // ESM (.js, .d.ts) and CommonJS (.cjs, .d.cts) for require(); the test kit is exported as ESM only
  // (it imports vitest, which has no CommonJS build). `shims` gives the CommonJS build an
  // import.meta.url, from which the loader finds the addon.
  format: ['esm', 'cjs'],
  shims: true,
  target: 'node20',
  // The d.ts build compiles only the entries: a composite project would want every file listed.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
