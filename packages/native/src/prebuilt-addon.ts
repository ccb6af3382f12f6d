import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LibcFamily, RunningPlatform } from './running-platform.js';

/**
 * The prebuilt addon of a prebuild package (`@kreplay/native-<target>`, see prebuild-package.ts):
 * `kreplay.node`, with `prebuild.json` beside it written by `scripts/prebuild.mjs` (the platform,
 * architecture and C library it was built for, the Node-API version it targets and, for glibc, the
 * lowest glibc it needs, read from its versioned symbols).
 */
export interface PrebuiltAddon {
  readonly path: string;
  /** From the manifest; `undefined` when it names none. */
  readonly platform: string | undefined;
  readonly arch: string | undefined;
  readonly libc: LibcFamily | undefined;
  /** The manifest's Node-API version, `undefined` when there is no manifest. */
  readonly napiVersion: number | undefined;
  /** The manifest's lowest glibc, `undefined` when there is none or no manifest. */
  readonly minimumGlibc: string | undefined;
}

/** The name of a prebuild package's manifest. @internal */
export const prebuildManifestName = 'prebuild.json';

interface PrebuildManifest {
  readonly napi?: unknown;
  readonly platform?: unknown;
  readonly arch?: unknown;
  readonly libc?: unknown;
  readonly glibc?: unknown;
}

/**
 * Describes the addon in a prebuild package's folder from its manifest (fields it lacks are
 * `undefined`, and {@link prebuildMismatch} says so).
 * @internal
 */
export function describePrebuiltAddon(directory: string): PrebuiltAddon {
  const manifest = readManifest(join(directory, prebuildManifestName));
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const libc = manifest.libc === 'glibc' || manifest.libc === 'musl' ? manifest.libc : undefined;
  return {
    path: join(directory, 'kreplay.node'),
    platform: text(manifest.platform),
    arch: text(manifest.arch),
    libc,
    napiVersion: typeof manifest.napi === 'number' ? manifest.napi : undefined,
    minimumGlibc: text(manifest.glibc),
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
  if (prebuild.platform === undefined || prebuild.arch === undefined) {
    return `its ${prebuildManifestName} names no platform and architecture`;
  }
  if (prebuild.platform !== running.platform || prebuild.arch !== running.arch) {
    return `built for ${prebuild.platform}-${prebuild.arch}, this is ${running.platform}-${running.arch}`;
  }
  if (running.platform === 'linux') {
    if (prebuild.libc === undefined) return `its ${prebuildManifestName} names no C library (glibc or musl)`;
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
