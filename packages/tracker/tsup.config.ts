import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  // The d.ts build compiles only the entry: a composite project would want every file listed.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
});
