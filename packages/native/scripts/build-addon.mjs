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
 * @param {{ tests?: boolean, relink?: boolean, buildDirectory?: string, definitions?: Record<string, string> }} options
 *   tests: build the C++ tests too (undefined: as the build folder was configured); buildDirectory: where to build (default build/; scripts/prebuild.mjs builds each target in its own
 *   folder); definitions: more CMake cache entries (-D), e.g. KREPLAY_PORTABLE or CMAKE_TOOLCHAIN_FILE.
 */
export function buildAddon(options = {}) {
  const buildDirectory = options.buildDirectory ?? join(packageRoot, 'build');
  const addon = join(buildDirectory, 'Release', 'kreplay.node');
  const captureLibrary = join(buildDirectory, 'Release', 'libkreplay-capture.so');
  if (options.relink) for (const file of [addon, captureLibrary]) rmSync(file, { force: true });
  const require = createRequire(join(packageRoot, 'package.json'));
  let cmakeJs;
  try {
    cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
  } catch {
    fail('cmake-js is not installed: it is a dependency of @kreplay/native; reinstall the package.');
  }
  // A package moved or copied keeps a cache naming its old folders, which CMake refuses: start afresh.
  const stale = freshenBuildFolder(buildDirectory, packageRoot);
  if (stale !== null) console.log(`[native] [build] the build folder was left by another copy of the package (${stale}); configuring in a fresh one.`);
  // KREPLAY_BUILD_TESTS: as asked, else as the folder was configured (OFF in a new one).
  const definitions = {
    KREPLAY_NODE: process.execPath,
    ...(options.tests === undefined ? {} : { KREPLAY_BUILD_TESTS: options.tests ? 'ON' : 'OFF' }),
    KREPLAY_PORTABLE: 'OFF',
    ...options.definitions,
  };
  const flags = ['--out', buildDirectory, ...Object.entries(definitions).map(([name, value]) => `--CD${name}=${value}`)];
  // Configure every time (quick on a configured tree), then build: `compile` configures only a tree
  // that was never configured, so a tree an install configured without the tests would stay so.
  for (const step of [
    ['configure', ...flags],
    ['build', '--out', buildDirectory, '--parallel', String(availableParallelism())],
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
