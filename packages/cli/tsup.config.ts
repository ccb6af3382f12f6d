import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  target: 'node20',
  dts: { entry: 'src/index.ts', compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
  define: { KREPLAY_CLI_VERSION: JSON.stringify(version) },
});
