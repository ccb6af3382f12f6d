#!/usr/bin/env node
// Builds build/Release/kreplay.node with cmake-js against node-api-headers: no downloads, no GPU SDK.
// A rebuild with nothing changed only re-checks timestamps (cmake's incremental build).
//   node scripts/build-addon.mjs              build (incrementally)
//   node scripts/build-addon.mjs --if-missing do nothing when the addon exists (the package's install script)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const addon = join(packageRoot, 'build', 'Release', 'kreplay.node');

if (process.argv.includes('--if-missing') && existsSync(addon)) process.exit(0);

const require = createRequire(join(packageRoot, 'package.json'));
let cmakeJs;
try {
  cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
} catch {
  fail('cmake-js is not installed. Run `pnpm install` in the repository root.');
}

const result = spawnSync(
  process.execPath,
  [
    cmakeJs,
    'compile',
    '--config',
    'Release',
    '--parallel',
    String(availableParallelism()),
    '--log-level',
    'warn',
    `--CDKREPLAY_NODE=${process.execPath}`,
  ],
  { cwd: packageRoot, stdio: 'inherit', env: { ...process.env, npm_config_build_from_source: 'true' } },
);
if (result.error) fail(`could not run cmake-js: ${result.error.message}.`);
if (result.status !== 0) {
  fail(
    'the C++ build failed (see the compiler output above). It needs cmake >= 3.19 and a C++17 compiler ' +
      '(g++ or clang++); it downloads nothing.',
  );
}
if (!existsSync(addon)) fail(`the build finished but ${addon} is missing.`);

function fail(message) {
  console.error(`[native] [build] ${message}`);
  process.exit(1);
}
