import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const benchVersion = (JSON.parse(readFileSync('../bench/package.json', 'utf8')) as { version: string }).version;

/** The commit the bundle is built from (KREPLAY_GIT_COMMIT, else git), recorded in bench reports. */
function commit(): string | null {
  const given = process.env.KREPLAY_GIT_COMMIT?.trim().toLowerCase();
  if (given && /^[0-9a-f]{7,64}$/.test(given)) return given;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

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
  define: { KREPLAY_CLI_VERSION: JSON.stringify(version), KREPLAY_BENCH_VERSION: JSON.stringify(benchVersion), KREPLAY_GIT_COMMIT_AT_BUILD: JSON.stringify(commit()) },
  banner: { js: "import { createRequire as kreplayCreateRequire } from 'node:module'; const require = kreplayCreateRequire(import.meta.url);" },
});
