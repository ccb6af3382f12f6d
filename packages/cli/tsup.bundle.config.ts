import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// One self-contained ESM file of the whole CLI (every @kreplay package and commander inlined), for
// GPU nodes with Node.js but no registry; scripts/bundle.mjs puts kreplay.node beside it.
export default defineConfig({
  entry: { kreplay: 'src/bin.ts' },
  outDir: 'bundle',
  format: ['esm'],
  outExtension: () => ({ js: '.mjs' }),
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  sourcemap: false,
  clean: true,
  dts: false,
  define: { KREPLAY_CLI_VERSION: JSON.stringify(version) },
  banner: { js: "import { createRequire as kreplayCreateRequire } from 'node:module'; const require = kreplayCreateRequire(import.meta.url);" },
});
