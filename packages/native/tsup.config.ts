import { defineConfig } from 'tsup';

export default defineConfig({
  // binding-probe: run by scripts/install.mjs (as dist/binding-probe.js) to check that an addon loads; not an export.
  entry: { index: 'src/index.ts', test: 'src/test.ts', 'binding-probe': 'src/addon/binding-probe.ts' },
  format: ['esm'],
  target: 'node20',
  // The d.ts build compiles only the entries: a composite project would want every file listed.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
