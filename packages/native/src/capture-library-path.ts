import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KreplayError } from './errors/kreplay-error.js';
import { rebuildCommand } from './load-binding.js';
import { findPrebuildPackage } from './prebuild-package.js';
import { type RunningPlatform, runningPlatform } from './running-platform.js';

/** The capture library's file name in a build and beside a bundle. */
export const captureLibraryFileName = 'libkreplay-capture.so';

/** Where {@link captureLibraryCandidates} looks. @internal */
export interface CaptureLibrarySearch {
  /** The package root (holding `build/`; the prebuild package is resolved from it). */
  readonly packageRoot: string;
  /** The folder of the running module (a bundle's libkreplay-capture.so sits beside it). */
  readonly moduleDirectory: string;
  readonly running: RunningPlatform;
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** One place the capture library may be. @internal */
export interface CaptureLibraryCandidate {
  readonly source: string;
  readonly path: string;
  /** Why there is no file to look at (the prebuild package is not installed); `path` then names the package. */
  readonly absent?: string;
}

/**
 * The places the capture library may be, in the order they are searched (that of the addon):
 * `KREPLAY_CAPTURE_LIBRARY` when set (then only there), `build/Release/libkreplay-capture.so` of this
 * package, `libkreplay-capture.so` of the prebuild package of this system
 * (`@kreplay/native-<platform>-<arch>-<gnu|musl>`, when installed), then beside the bundle.
 * @internal
 */
export function captureLibraryCandidates(search: CaptureLibrarySearch = defaultSearch()): CaptureLibraryCandidate[] {
  const fromEnvironment = search.environment['KREPLAY_CAPTURE_LIBRARY'];
  if (fromEnvironment) return [{ source: 'KREPLAY_CAPTURE_LIBRARY', path: resolve(fromEnvironment) }];
  const prebuildPackage = findPrebuildPackage(search.packageRoot, search.running);
  return [
    { source: 'the source build', path: join(search.packageRoot, 'build', 'Release', captureLibraryFileName) },
    'directory' in prebuildPackage
      ? { source: 'a prebuild', path: join(prebuildPackage.directory, captureLibraryFileName) }
      : { source: 'a prebuild', path: prebuildPackage.name, absent: prebuildPackage.absent },
    { source: 'next to the bundle', path: join(search.moduleDirectory, captureLibraryFileName) },
  ];
}

function defaultSearch(): CaptureLibrarySearch {
  const moduleDirectory = dirname(fileURLToPath(import.meta.url));
  return { packageRoot: join(moduleDirectory, '..'), moduleDirectory, running: runningPlatform(), environment: process.env };
}

/**
 * The path of `libkreplay-capture.so`, the capture library a CUDA program loads through
 * `CUDA_INJECTION64_PATH` (it is built with the addon; `kreplay capture` sets it up). Searched in
 * `$KREPLAY_CAPTURE_LIBRARY` (only there, when set), this package's `build/Release`, the prebuild
 * package of this system, then beside the bundled module.
 * @throws {KreplayError} naming every place searched when none holds it, and how to build it.
 */
export function captureLibraryPath(): string {
  return findCaptureLibrary(defaultSearch());
}

/** {@link captureLibraryPath} over a given search. @internal */
export function findCaptureLibrary(search: CaptureLibrarySearch): string {
  const candidates = captureLibraryCandidates(search);
  const found = candidates.find((candidate) => candidate.absent === undefined && existsSync(candidate.path));
  if (found) return found.path;
  throw new KreplayError({
    packageName: 'native',
    component: 'capture',
    message:
      `[native] [capture] the capture library ${captureLibraryFileName} was not found; searched: ` +
      `${candidates.map((candidate) => `${candidate.source}: ${candidate.absent ?? candidate.path}`).join('; ')}. ` +
      `Build it (with the addon) from source with \`${rebuildCommand}\`, or point KREPLAY_CAPTURE_LIBRARY at it; ` +
      'in the kreplay repository: `pnpm --filter @kreplay/native build`.',
  });
}
