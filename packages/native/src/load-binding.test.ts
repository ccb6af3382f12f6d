import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { KreplayError } from './errors/kreplay-error.js';
import { type BindingSearch, bindingCandidates, loadFirstBinding } from './load-binding.js';
import type { RunningPlatform } from './running-platform.js';

const builtAddon = fileURLToPath(new URL('../build/Release/kreplay.node', import.meta.url));
const glibc236: RunningPlatform = { platform: 'linux', arch: 'x64', libc: 'glibc', glibcVersion: '2.36', napiVersion: 9 };

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A package root with the given files; a value of `addon` copies the real built addon there. */
function packageWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kreplay-load-binding-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    if (text === 'addon') copyFileSync(builtAddon, join(root, path));
    else writeFileSync(join(root, path), text);
  }
  return root;
}

function search(packageRoot: string, running: RunningPlatform = glibc236, environment = {}): BindingSearch {
  return { packageRoot, moduleDirectory: join(packageRoot, 'dist'), running, environment };
}

const prebuildDirectory = 'node_modules/@kreplay/native-linux-x64-gnu';
const prebuildPackageJson = JSON.stringify({ name: '@kreplay/native-linux-x64-gnu', version: '0.0.0' });
const x64Manifest = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ napi: 8, platform: 'linux', arch: 'x64', libc: 'glibc', glibc: '2.28', ...fields });

describe('bindingCandidates', () => {
  it('searches the variable, the source build, the prebuild package that fits, then beside the bundle', () => {
    const root = packageWith({
      [`${prebuildDirectory}/package.json`]: prebuildPackageJson,
      [`${prebuildDirectory}/kreplay.node`]: 'x',
      [`${prebuildDirectory}/prebuild.json`]: x64Manifest({ glibc: '2.38' }),
    });
    const candidates = bindingCandidates(search(root, glibc236, { KREPLAY_NATIVE_BINDING: '/elsewhere/k.node' }));
    expect(candidates).toEqual([
      { source: 'KREPLAY_NATIVE_BINDING', path: '/elsewhere/k.node' },
      { source: 'the source build', path: join(root, 'build/Release/kreplay.node') },
      { source: 'a prebuild', path: join(root, prebuildDirectory, 'kreplay.node'), unfit: 'needs glibc >= 2.38, this system has 2.36' },
      { source: 'next to the bundle', path: join(root, 'dist/kreplay.node') },
    ]);
  });

  it('finds the prebuild package in a node_modules folder above the package (npm installs it beside @kreplay/native)', () => {
    const project = packageWith({
      [`${prebuildDirectory}/package.json`]: prebuildPackageJson,
      [`${prebuildDirectory}/prebuild.json`]: x64Manifest(),
    });
    const nativeRoot = join(project, 'node_modules/@kreplay/native');
    mkdirSync(nativeRoot, { recursive: true });
    expect(bindingCandidates(search(nativeRoot))[1]).toEqual({ source: 'a prebuild', path: join(project, prebuildDirectory, 'kreplay.node') });
  });

  it('says why there is no prebuild package: not installed, or none published for this system', () => {
    const root = packageWith({});
    expect(bindingCandidates(search(root))[1]).toMatchObject({
      source: 'a prebuild',
      path: '@kreplay/native-linux-x64-gnu',
      absent: expect.stringContaining('@kreplay/native-linux-x64-gnu is not installed (an optional dependency of @kreplay/native'),
    });
    expect(bindingCandidates(search(root, { ...glibc236, libc: 'musl', glibcVersion: undefined }))[1]).toMatchObject({
      path: '@kreplay/native-linux-x64-musl',
      absent: 'kreplay publishes no prebuilt addon for linux-x64-musl (only for linux-x64-gnu, linux-arm64-gnu)',
    });
  });
});

describe('loadFirstBinding', () => {
  const here = { ...glibc236, platform: process.platform, arch: process.arch };
  const herePackage = `node_modules/@kreplay/native-${process.platform}-${process.arch}-gnu`;
  const hereManifest = JSON.stringify({ napi: 8, platform: process.platform, arch: process.arch, libc: 'glibc', glibc: '2.17' });

  it('loads the prebuild that fits when there is no source build', () => {
    const root = packageWith({
      [`${herePackage}/package.json`]: '{}',
      [`${herePackage}/kreplay.node`]: 'addon',
      [`${herePackage}/prebuild.json`]: hereManifest,
    });
    const loaded = loadFirstBinding(bindingCandidates(search(root, here)));
    expect(loaded.candidate.path).toBe(join(root, herePackage, 'kreplay.node'));
    expect(typeof loaded.binding.openRuntime).toBe('function');
  });

  it('prefers the source build of this machine to a prebuild, and falls back to it when the prebuild is damaged', () => {
    const both = packageWith({
      'build/Release/kreplay.node': 'addon',
      [`${herePackage}/package.json`]: '{}',
      [`${herePackage}/kreplay.node`]: 'addon',
      [`${herePackage}/prebuild.json`]: hereManifest,
    });
    expect(loadFirstBinding(bindingCandidates(search(both, here))).candidate.source).toBe('the source build');
    const damaged = packageWith({
      'build/Release/kreplay.node': 'addon',
      [`${herePackage}/package.json`]: '{}',
      [`${herePackage}/kreplay.node`]: 'not an ELF file',
      [`${herePackage}/prebuild.json`]: hereManifest,
    });
    expect(loadFirstBinding(bindingCandidates(search(damaged, here))).candidate.source).toBe('the source build');
  });

  it('lists every cause and a fix that works in an installed package when nothing loads', () => {
    const root = packageWith({
      [`${prebuildDirectory}/package.json`]: prebuildPackageJson,
      [`${prebuildDirectory}/kreplay.node`]: 'not an ELF file',
      [`${prebuildDirectory}/prebuild.json`]: x64Manifest(),
    });
    const error = (() => {
      try {
        loadFirstBinding(bindingCandidates(search(root)));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(KreplayError);
    const { message } = error as KreplayError;
    expect(message).toMatch(/^\[native\] \[binding\] the native addon kreplay.node could not be loaded; searched: /);
    expect(message).toContain(`the source build: ${join(root, 'build/Release/kreplay.node')} does not exist`);
    expect(message).toContain(`a prebuild: ${join(root, prebuildDirectory, 'kreplay.node')} did not load (`);
    expect(message).toContain(`next to the bundle: ${join(root, 'dist/kreplay.node')} does not exist`);
    expect(message).toContain('`npm rebuild @kreplay/native` (needs cmake >= 3.19 and a C++17 compiler');
  });

  it('names the prebuild package that is not installed', () => {
    const root = packageWith({});
    expect(() => loadFirstBinding(bindingCandidates(search(root, { ...glibc236, arch: 'arm64' })))).toThrow(
      'a prebuild: @kreplay/native-linux-arm64-gnu is not installed',
    );
  });
});
