import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareVersions, describePrebuiltAddon, type PrebuiltAddon, prebuildMismatch } from './prebuilt-addon.js';
import type { RunningPlatform } from './running-platform.js';

const glibc236: RunningPlatform = { platform: 'linux', arch: 'x64', libc: 'glibc', glibcVersion: '2.36', napiVersion: 9 };
const prebuild: PrebuiltAddon = {
  path: '/p/node_modules/@kreplay/native-linux-x64-gnu/kreplay.node',
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

describe('describePrebuiltAddon', () => {
  it('reads the platform, architecture, C library, Node-API and glibc needs from prebuild.json', () => {
    const root = packageWith({ 'prebuild.json': JSON.stringify({ napi: 8, platform: 'linux', arch: 'arm64', libc: 'glibc', glibc: '2.28' }) });
    expect(describePrebuiltAddon(root)).toEqual({
      path: join(root, 'kreplay.node'),
      platform: 'linux',
      arch: 'arm64',
      libc: 'glibc',
      napiVersion: 8,
      minimumGlibc: '2.28',
    });
  });

  it('leaves unknown what a missing or damaged manifest does not say', () => {
    const root = packageWith({ 'prebuild.json': '{ not json' });
    expect(describePrebuiltAddon(root)).toEqual({
      path: join(root, 'kreplay.node'),
      platform: undefined,
      arch: undefined,
      libc: undefined,
      napiVersion: undefined,
      minimumGlibc: undefined,
    });
    expect(prebuildMismatch(describePrebuiltAddon(root), glibc236)).toBe('its prebuild.json names no platform and architecture');
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
    expect(prebuildMismatch({ ...prebuild, libc: undefined }, glibc236)).toBe('its prebuild.json names no C library (glibc or musl)');
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
