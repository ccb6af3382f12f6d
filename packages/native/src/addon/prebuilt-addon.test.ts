import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareVersions, listPrebuiltAddons, type PrebuiltAddon, prebuildMismatch } from './prebuilt-addon.js';
import type { RunningPlatform } from './running-platform.js';

const glibc236: RunningPlatform = { platform: 'linux', arch: 'x64', libc: 'glibc', glibcVersion: '2.36', napiVersion: 9 };
const prebuild: PrebuiltAddon = {
  path: '/p/prebuilds/linux-x64/kreplay.napi.glibc.node',
  platform: 'linux',
  arch: 'x64',
  libc: 'glibc',
  napiVersion: 8,
  minimumGlibc: '2.34',
};

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function packageWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kreplay-prebuilds-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('listPrebuiltAddons', () => {
  it('reads the libc tag from the file name and the Node-API and glibc needs from the manifest beside it', () => {
    const root = packageWith({
      'prebuilds/linux-x64/kreplay.napi.glibc.node': 'x',
      'prebuilds/linux-x64/kreplay.napi.glibc.json': JSON.stringify({ napi: 8, glibc: '2.34' }),
      'prebuilds/linux-x64/kreplay.napi.musl.node': 'x',
      'prebuilds/linux-arm64/kreplay.napi.glibc.node': 'x',
    });
    expect(listPrebuiltAddons(root, glibc236)).toEqual([
      {
        path: join(root, 'prebuilds/linux-x64/kreplay.napi.glibc.node'),
        platform: 'linux',
        arch: 'x64',
        libc: 'glibc',
        napiVersion: 8,
        minimumGlibc: '2.34',
      },
      {
        path: join(root, 'prebuilds/linux-x64/kreplay.napi.musl.node'),
        platform: 'linux',
        arch: 'x64',
        libc: 'musl',
        napiVersion: undefined,
        minimumGlibc: undefined,
      },
    ]);
  });

  it('finds none when the package has no prebuilds of this platform and architecture', () => {
    const root = packageWith({ 'prebuilds/linux-arm64/kreplay.napi.glibc.node': 'x' });
    expect(listPrebuiltAddons(root, glibc236)).toEqual([]);
  });
});

describe('prebuildMismatch', () => {
  it('accepts a prebuild of this platform, architecture and C library that needs an older glibc', () => {
    expect(prebuildMismatch(prebuild, glibc236)).toBeUndefined();
    expect(prebuildMismatch(prebuild, { ...glibc236, glibcVersion: '2.34' })).toBeUndefined();
  });

  it('says which of platform, architecture, C library, glibc version and Node-API does not fit', () => {
    expect(prebuildMismatch(prebuild, { ...glibc236, arch: 'arm64' })).toBe('built for linux-x64, this is linux-arm64');
    expect(prebuildMismatch(prebuild, { ...glibc236, libc: 'musl', glibcVersion: undefined })).toBe(
      'built for glibc, this system runs musl',
    );
    expect(prebuildMismatch(prebuild, { ...glibc236, glibcVersion: '2.31' })).toBe(
      'needs glibc >= 2.34, this system has 2.31',
    );
    expect(prebuildMismatch(prebuild, { ...glibc236, napiVersion: 7 })).toBe(
      'needs Node-API 8, this Node.js offers 7',
    );
    expect(prebuildMismatch({ ...prebuild, libc: undefined }, glibc236)).toBe('its name has no glibc or musl tag');
    expect(prebuildMismatch(prebuild, { ...glibc236, libc: undefined, glibcVersion: undefined })).toBe(
      "built for glibc, and this system's C library is unknown",
    );
  });
});

describe('compareVersions', () => {
  it('compares each dotted part as a number', () => {
    expect(compareVersions('2.34', '2.4')).toBe(1);
    expect(compareVersions('2.34', '2.36')).toBe(-1);
    expect(compareVersions('2.34', '2.34.0')).toBe(0);
  });
});
