import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { LibcFamily, RunningPlatform } from './running-platform.js';

/**
 * The targets kreplay publishes prebuilt addons for. Each is the package `@kreplay/native-<target>`
 * (kreplay.node, libkreplay-capture.so and prebuild.json), an optional dependency of
 * `@kreplay/native` whose `os`, `cpu` and `libc` fields let package managers install only the one
 * that fits, as sharp's `@img/sharp-<target>` packages do.
 */
export const prebuildTargets = ['linux-x64-gnu', 'linux-arm64-gnu'] as const;

/** The target name of a system: `linux-x64-gnu` (glibc), `linux-x64-musl`, `darwin-arm64`. @internal */
export function prebuildTarget(platform: string, arch: string, libc: LibcFamily | undefined): string {
  if (platform !== 'linux') return `${platform}-${arch}`;
  return `${platform}-${arch}-${libc === 'musl' ? 'musl' : libc === 'glibc' ? 'gnu' : 'unknown-libc'}`;
}

/** Where the prebuild package of the running system is, or why it is not there. @internal */
export type PrebuildPackageLocation =
  | { readonly name: string; readonly directory: string }
  | { readonly name: string; readonly absent: string };

/**
 * The folder of package `name` as a dependency of the package at `packageRoot`: in the
 * `node_modules` of its folder or of a folder above it, as Node.js looks for a dependency. NODE_PATH
 * and the global folders are not searched: an optional dependency of @kreplay/native is installed
 * beside it, and NODE_PATH (which pnpm's scripts set to its store) would find a package of another
 * install.
 */
function dependencyFolder(packageRoot: string, name: string): string | null {
  for (let folder = resolve(packageRoot); ; folder = dirname(folder)) {
    if (basename(folder) !== 'node_modules') {
      const candidate = join(folder, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    if (dirname(folder) === folder) return null;
  }
}

/**
 * Finds `@kreplay/native-<target>` for the running system where a dependency of the package at
 * `packageRoot` is installed (its own node_modules, then those above it).
 * @internal
 */
export function findPrebuildPackage(packageRoot: string, running: RunningPlatform): PrebuildPackageLocation {
  const target = prebuildTarget(running.platform, running.arch, running.libc);
  const name = `@kreplay/native-${target}`;
  if (!(prebuildTargets as readonly string[]).includes(target)) {
    return { name, absent: `kreplay publishes no prebuilt addon for ${target} (only for ${prebuildTargets.join(', ')})` };
  }
  const directory = dependencyFolder(packageRoot, name);
  if (directory !== null) return { name, directory };
  return {
    name,
    absent:
      `${name} is not installed (an optional dependency of @kreplay/native, installed on ${target} only; ` +
      '--omit=optional, --no-optional or a lockfile made on another system leaves it out: reinstall without them)',
  };
}
