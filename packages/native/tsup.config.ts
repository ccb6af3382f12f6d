import { defineConfig } from 'tsup';

export default defineConfig({
  // binding-probe: run by scripts/install.mjs to check that an addon loads; not an export.
  entry: ['src/index.ts', 'src/test.ts', 'src/binding-probe.ts'],
  format: ['esm'],
  target: 'node20',
  // The d.ts build compiles only the entries: a composite project would want every file listed.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
