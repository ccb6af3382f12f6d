import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KreplayError } from './errors/kreplay-error.js';
import type { NativeBinding } from './native-binding.js';
import { describePrebuiltAddon, prebuildMismatch } from './prebuilt-addon.js';
import { findPrebuildPackage } from './prebuild-package.js';
import { type RunningPlatform, runningPlatform } from './running-platform.js';

/** Where the addon may be, in the order it is searched. */
export interface BindingCandidate {
  readonly source: string;
  readonly path: string;
  /** Why this candidate cannot load here, known before trying (a prebuild for another system). */
  readonly unfit?: string;
  /** Why there is no file to try at all (the prebuild package is not installed); `path` then names the package. */
  readonly absent?: string;
}

/** Where {@link bindingCandidates} looks. */
export interface BindingSearch {
  /** The package root (holding `build/`; the prebuild package is resolved from it). */
  readonly packageRoot: string;
  /** The folder of the running module (a bundle's `kreplay.node` sits beside it). */
  readonly moduleDirectory: string;
  readonly running: RunningPlatform;
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** The command that builds the addon from source in an installed package. */
export const rebuildCommand = 'npm rebuild @kreplay/native';

/**
 * The search order of the addon (node-gyp-build's: a local build first, then prebuilds):
 * 1. the file named by the environment variable `KREPLAY_NATIVE_BINDING`, when set;
 * 2. `build/Release/kreplay.node` of this package, built from source on this machine (by `pnpm
 *    build`, or by the install script when no prebuild fits, or by `npm rebuild`);
 * 3. `kreplay.node` of the prebuild package of this system, `@kreplay/native-<platform>-<arch>-<gnu|musl>`
 *    (an optional dependency; see prebuild-package.ts), checked against the running platform, C library,
 *    Node-API and glibc version (its prebuild.json) before it is tried;
 * 4. `kreplay.node` next to the bundled module file (for a bundle shipped with its addon).
 * @internal
 */
export function bindingCandidates(search: BindingSearch = defaultSearch()): BindingCandidate[] {
  const candidates: BindingCandidate[] = [];
  const fromEnvironment = search.environment['KREPLAY_NATIVE_BINDING'];
  if (fromEnvironment) candidates.push({ source: 'KREPLAY_NATIVE_BINDING', path: resolve(fromEnvironment) });
  candidates.push({ source: 'the source build', path: join(search.packageRoot, 'build', 'Release', 'kreplay.node') });
  const prebuildPackage = findPrebuildPackage(search.packageRoot, search.running);
  if ('absent' in prebuildPackage) {
    candidates.push({ source: 'a prebuild', path: prebuildPackage.name, absent: prebuildPackage.absent });
  } else {
    const prebuild = describePrebuiltAddon(prebuildPackage.directory);
    const unfit = prebuildMismatch(prebuild, search.running);
    candidates.push({ source: 'a prebuild', path: prebuild.path, ...(unfit === undefined ? {} : { unfit }) });
  }
  candidates.push({ source: 'next to the bundle', path: join(search.moduleDirectory, 'kreplay.node') });
  return candidates;
}

function defaultSearch(): BindingSearch {
  const moduleDirectory = dirname(fileURLToPath(import.meta.url));
  return {
    packageRoot: join(moduleDirectory, '..'),
    moduleDirectory,
    running: runningPlatform(),
    environment: process.env,
  };
}

/** The addon that loaded, and the candidate it came from. @internal */
export interface LoadedBinding {
  readonly binding: NativeBinding;
  readonly candidate: BindingCandidate;
}

/**
 * Loads the first candidate that fits and loads, without caching.
 * @throws {KreplayError} listing every candidate, why each failed, and how to fix it.
 * @internal
 */
export function loadFirstBinding(candidates: readonly BindingCandidate[]): LoadedBinding {
  const require = createRequire(import.meta.url);
  const failures: string[] = [];
  for (const candidate of candidates) {
    if (candidate.absent !== undefined) {
      failures.push(`${candidate.source}: ${candidate.absent}`);
      continue;
    }
    if (candidate.unfit !== undefined) {
      failures.push(`${candidate.source}: ${candidate.path} does not fit (${candidate.unfit})`);
      continue;
    }
    if (!existsSync(candidate.path)) {
      failures.push(`${candidate.source}: ${candidate.path} does not exist`);
      continue;
    }
    try {
      return { binding: require(candidate.path) as NativeBinding, candidate };
    } catch (error) {
      failures.push(`${candidate.source}: ${candidate.path} did not load (${(error as Error).message.trim()})`);
    }
  }
  throw new KreplayError({
    packageName: 'native',
    component: 'binding',
    message:
      `[native] [binding] the native addon kreplay.node could not be loaded; searched: ${failures.join('; ')}. ` +
      `Build it from source with \`${rebuildCommand}\` (needs cmake >= 3.19 and a C++17 compiler; downloads ` +
      'nothing), or point KREPLAY_NATIVE_BINDING at a kreplay.node built for this platform; ' +
      'in the kreplay repository: `pnpm --filter @kreplay/native build`.',
  });
}

let loaded: LoadedBinding | undefined;

/**
 * Loads the addon once, from the first candidate of {@link bindingCandidates} that fits and loads.
 * @throws {KreplayError} listing every place searched, why each failed, and how to fix it.
 * @internal
 */
export function loadBinding(): NativeBinding {
  loaded ??= loadFirstBinding(bindingCandidates());
  return loaded.binding;
}

/**
 * The file the addon was (or now is) loaded from, and which candidate it was.
 * @throws {KreplayError} when no candidate loads.
 * @internal
 */
export function loadedBindingCandidate(): BindingCandidate {
  loadBinding();
  return (loaded as LoadedBinding).candidate;
}

/**
 * The path of the `kreplay.node` this process uses, loading it when it is not loaded yet (the search
 * order is that of the addon: `KREPLAY_NATIVE_BINDING`, the source build, the prebuild package of
 * this system, beside the bundle). A bundle for other machines copies it (`kreplay bench --slurm`).
 * @throws {KreplayError} when no addon loads, listing every place searched and how to fix it.
 */
export function nativeAddonPath(): string {
  return loadedBindingCandidate().path;
}
