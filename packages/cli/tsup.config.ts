import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  // ESM (.js, .d.ts) and CommonJS (.cjs, .d.cts, for require()); the `kreplay` command runs the ESM
  // bin.js. `shims` gives the CommonJS build an import.meta.url.
  format: ['esm', 'cjs'],
  shims: true,
  target: 'node20',
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
  define: { KREPLAY_CLI_VERSION: JSON.stringify(version) },
});
