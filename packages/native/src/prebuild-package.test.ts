import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prebuildTarget, prebuildTargets } from './prebuild-package.js';

const readJson = (relative: string) => JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('the prebuild packages', () => {
  it('are the optional dependencies of @kreplay/native, one per target, each limited to its os, cpu and libc', () => {
    const native = readJson('../package.json');
    expect(Object.keys(native['optionalDependencies'] as object).sort()).toEqual(prebuildTargets.map((target) => `@kreplay/native-${target}`).sort());
    for (const target of prebuildTargets) {
      const [platform, arch, libc] = target.split('-') as [string, string, string];
      const manifest = readJson(`../../native-${target}/package.json`);
      expect(manifest).toMatchObject({ name: `@kreplay/native-${target}`, version: native['version'], os: [platform], cpu: [arch], libc: [libc === 'gnu' ? 'glibc' : libc] });
      expect(manifest['files']).toEqual(['kreplay.node', 'libkreplay-capture.so', 'prebuild.json']);
      expect(prebuildTarget(platform, arch, libc === 'gnu' ? 'glibc' : 'musl')).toBe(target);
    }
  });

  it('name the system as Node.js does, with the C library on Linux', () => {
    expect(prebuildTarget('linux', 'x64', 'glibc')).toBe('linux-x64-gnu');
    expect(prebuildTarget('linux', 'arm64', 'musl')).toBe('linux-arm64-musl');
    expect(prebuildTarget('linux', 'x64', undefined)).toBe('linux-x64-unknown-libc');
    expect(prebuildTarget('darwin', 'arm64', undefined)).toBe('darwin-arm64');
  });
});
