import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { LibcFamily, RunningPlatform } from './running-platform.js';

/**
 * One prebuilt addon in the prebuildify / node-gyp-build layout:
 * `prebuilds/<platform>-<arch>/kreplay.napi.<libc>.node`, with `kreplay.napi.<libc>.json` beside it
 * written by `scripts/prebuild.mjs` (the Node-API version it targets and, for glibc, the lowest
 * glibc it needs, read from its versioned symbols). The manifest also records the libstdc++ symbol
 * version it needs (`glibcxx`), for people: Node.js cannot tell the running one, so a prebuild that
 * needs a newer libstdc++ is found out by loading it, and its load error names the missing version.
 */
export interface PrebuiltAddon {
  readonly path: string;
  readonly platform: string;
  readonly arch: string;
  /** From the file name's tags; `undefined` when it names none (not Linux). */
  readonly libc: LibcFamily | undefined;
  /** The manifest's Node-API version, `undefined` when there is no manifest. */
  readonly napiVersion: number | undefined;
  /** The manifest's lowest glibc, `undefined` when there is none or no manifest. */
  readonly minimumGlibc: string | undefined;
}

interface PrebuildManifest {
  readonly napi?: unknown;
  readonly glibc?: unknown;
}

/**
 * The prebuilt addons in `prebuilds/<platform>-<arch>` of the package root, for this platform and
 * architecture only (others are never candidates).
 * @internal
 */
export function listPrebuiltAddons(packageRoot: string, running: RunningPlatform): PrebuiltAddon[] {
  const directory = join(packageRoot, 'prebuilds', `${running.platform}-${running.arch}`);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((file) => file.endsWith('.node'))
    .sort()
    .map((file) => describePrebuild(join(directory, file), running.platform, running.arch));
}

function describePrebuild(path: string, platform: string, arch: string): PrebuiltAddon {
  const tags = basename(path).split('.').slice(1, -1);
  const libc = tags.includes('musl') ? 'musl' : tags.includes('glibc') ? 'glibc' : undefined;
  const manifest = readManifest(path.replace(/\.node$/, '.json'));
  return {
    path,
    platform,
    arch,
    libc,
    napiVersion: typeof manifest.napi === 'number' ? manifest.napi : undefined,
    minimumGlibc: typeof manifest.glibc === 'string' ? manifest.glibc : undefined,
  };
}

function readManifest(path: string): PrebuildManifest {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as PrebuildManifest) : {};
  } catch {
    return {};
  }
}

/**
 * Why a prebuilt addon cannot load in the running process, or `undefined` when it fits: the
 * platform, the architecture, the C library family, the Node-API version and, under glibc, the
 * lowest glibc version it needs against the running one.
 * @internal
 */
export function prebuildMismatch(prebuild: PrebuiltAddon, running: RunningPlatform): string | undefined {
  if (prebuild.platform !== running.platform || prebuild.arch !== running.arch) {
    return `built for ${prebuild.platform}-${prebuild.arch}, this is ${running.platform}-${running.arch}`;
  }
  if (running.platform === 'linux') {
    if (prebuild.libc === undefined) return 'its name has no glibc or musl tag';
    if (running.libc === undefined) return `built for ${prebuild.libc}, and this system's C library is unknown`;
    if (prebuild.libc !== running.libc) return `built for ${prebuild.libc}, this system runs ${running.libc}`;
  }
  if (prebuild.napiVersion !== undefined && prebuild.napiVersion > running.napiVersion) {
    return `needs Node-API ${prebuild.napiVersion}, this Node.js offers ${running.napiVersion}`;
  }
  if (prebuild.libc === 'glibc' && prebuild.minimumGlibc !== undefined && running.glibcVersion !== undefined) {
    if (compareVersions(prebuild.minimumGlibc, running.glibcVersion) > 0) {
      return `needs glibc >= ${prebuild.minimumGlibc}, this system has ${running.glibcVersion}`;
    }
  }
  return undefined;
}

/**
 * Compares dotted version numbers part by part, as numbers (`2.34` is above `2.4`): negative, zero
 * or positive.
 * @internal
 */
export function compareVersions(left: string, right: string): number {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
