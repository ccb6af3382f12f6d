import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { KreplayError } from '../errors/kreplay-error.js';
import { type BindingSearch, bindingCandidates, loadFirstBinding } from './load-binding.js';
import type { RunningPlatform } from './running-platform.js';

const builtAddon = fileURLToPath(new URL('../../build/Release/kreplay.node', import.meta.url));
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

describe('bindingCandidates', () => {
  it('searches the variable, the source build, the fitting prebuilds, then beside the bundle', () => {
    const root = packageWith({
      'prebuilds/linux-x64/kreplay.napi.glibc.node': 'x',
      'prebuilds/linux-x64/kreplay.napi.glibc.json': JSON.stringify({ napi: 8, glibc: '2.38' }),
      'prebuilds/linux-x64/kreplay.napi.musl.node': 'x',
    });
    const candidates = bindingCandidates(search(root, glibc236, { KREPLAY_NATIVE_BINDING: '/elsewhere/k.node' }));
    expect(candidates).toEqual([
      { source: 'KREPLAY_NATIVE_BINDING', path: '/elsewhere/k.node' },
      { source: 'the source build', path: join(root, 'build/Release/kreplay.node') },
      {
        source: 'a prebuild',
        path: join(root, 'prebuilds/linux-x64/kreplay.napi.glibc.node'),
        unfit: 'needs glibc >= 2.38, this system has 2.36',
      },
      {
        source: 'a prebuild',
        path: join(root, 'prebuilds/linux-x64/kreplay.napi.musl.node'),
        unfit: 'built for musl, this system runs glibc',
      },
      { source: 'next to the bundle', path: join(root, 'dist/kreplay.node') },
    ]);
  });
});

describe('loadFirstBinding', () => {
  it('loads a prebuild that fits when there is no source build', () => {
    const folder = `prebuilds/${process.platform}-${process.arch}`;
    const root = packageWith({
      [`${folder}/kreplay.napi.glibc.node`]: 'addon',
      [`${folder}/kreplay.napi.glibc.json`]: JSON.stringify({ napi: 8, glibc: '2.17' }),
    });
    const here = { ...glibc236, platform: process.platform, arch: process.arch };
    const loaded = loadFirstBinding(bindingCandidates(search(root, here)));
    expect(loaded.candidate.path).toBe(join(root, folder, 'kreplay.napi.glibc.node'));
    expect(typeof loaded.binding.openRuntime).toBe('function');
  });

  it('prefers the source build of this machine to a prebuild, and falls back to it when the prebuild is damaged', () => {
    const both = packageWith({ 'build/Release/kreplay.node': 'addon', 'prebuilds/linux-x64/kreplay.napi.glibc.node': 'addon' });
    expect(loadFirstBinding(bindingCandidates(search(both))).candidate.source).toBe('the source build');
    const damaged = packageWith({
      'build/Release/kreplay.node': 'addon',
      'prebuilds/linux-x64/kreplay.napi.glibc.node': 'not an ELF file',
    });
    expect(loadFirstBinding(bindingCandidates(search(damaged))).candidate.source).toBe('the source build');
  });

  it('lists every cause and a fix that works in an installed package when nothing loads', () => {
    const root = packageWith({
      'prebuilds/linux-x64/kreplay.napi.glibc.node': 'not an ELF file',
      'prebuilds/linux-x64/kreplay.napi.musl.node': 'x',
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
    expect(message).toContain(`a prebuild: ${join(root, 'prebuilds/linux-x64/kreplay.napi.glibc.node')} did not load (`);
    expect(message).toContain('does not fit (built for musl, this system runs glibc)');
    expect(message).toContain(`next to the bundle: ${join(root, 'dist/kreplay.node')} does not exist`);
    expect(message).toContain('`npm rebuild @kreplay/native` (needs cmake >= 3.19 and a C++17 compiler');
  });

  it('names the missing prebuilds folder when the package has none for this platform', () => {
    const root = packageWith({});
    expect(() => loadFirstBinding(bindingCandidates(search(root, { ...glibc236, arch: 'riscv64' })))).toThrow(
      `the prebuilds: ${join(root, 'prebuilds/linux-riscv64')} does not exist`,
    );
  });
});
