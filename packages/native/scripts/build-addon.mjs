#!/usr/bin/env node
// Builds kreplay.node, and beside it the capture library libkreplay-capture.so (no Node.js inside;
// CUDA programs load it through CUDA_INJECTION64_PATH), with cmake-js against node-api-headers: no
// downloads, no GPU SDK. It needs cmake >= 3.19 and a C++17 compiler. A rebuild with nothing changed
// only re-checks timestamps.
//   node scripts/build-addon.mjs               the addon and the C++ tests with their fake ROCr
//                                              (build/tests; what the repository's own tests use)
//   node scripts/build-addon.mjs --addon-only  the addon alone (what an install builds)
//   --relink  (with either) remove build/Release/kreplay.node first, so that it is linked again even
//             when it looks newer than its sources (a damaged file left by a broken install)
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshenBuildFolder } from './cmake-build-folder.mjs';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the addon; returns its path. Exits the process with a `[native] [build]` message when the
 * build cannot run or fails.
 * @param {{ tests?: boolean, relink?: boolean }} options
 */
export function buildAddon(options = {}) {
  const addon = join(packageRoot, 'build', 'Release', 'kreplay.node');
  const captureLibrary = captureLibraryPath();
  if (options.relink) for (const file of [addon, captureLibrary]) rmSync(file, { force: true });
  const require = createRequire(join(packageRoot, 'package.json'));
  let cmakeJs;
  try {
    cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
  } catch {
    fail('cmake-js is not installed: it is a dependency of @kreplay/native; reinstall the package.');
  }
  // A package moved or copied keeps a cache naming its old folders, which CMake refuses: start afresh.
  const stale = freshenBuildFolder(join(packageRoot, 'build'), packageRoot);
  if (stale !== null) console.log(`[native] [build] the build folder was left by another copy of the package (${stale}); configuring in a fresh one.`);
  const flags = [`--CDKREPLAY_NODE=${process.execPath}`, `--CDKREPLAY_BUILD_TESTS=${options.tests ? 'ON' : 'OFF'}`];
  // Configure every time (quick on a configured tree), then build: `compile` configures only a tree
  // that was never configured, so a tree an install configured without the tests would stay so.
  for (const step of [
    ['configure', ...flags],
    ['build', '--parallel', String(availableParallelism())],
  ]) {
    const result = spawnSync(process.execPath, [cmakeJs, ...step, '--config', 'Release', '--log-level', 'warn'], {
      cwd: packageRoot,
      stdio: 'inherit',
      env: { ...process.env, npm_config_build_from_source: 'true' },
    });
    if (result.error) fail(`could not run cmake-js: ${result.error.message}.`);
    if (result.status !== 0) {
      fail(
        'the C++ build failed (see the compiler output above). It needs cmake >= 3.19 and a C++17 compiler ' +
          '(g++ or clang++); it downloads nothing.',
      );
    }
  }
  for (const file of [addon, captureLibrary]) if (!existsSync(file)) fail(`the build finished but ${file} is missing.`);
  return addon;
}

/** Where the build puts the capture library. */
export function captureLibraryPath() {
  return join(packageRoot, 'build', 'Release', 'libkreplay-capture.so');
}

function fail(message) {
  console.error(`[native] [build] ${message}`);
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildAddon({ tests: !process.argv.includes('--addon-only'), relink: process.argv.includes('--relink') });
}
