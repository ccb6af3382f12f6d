import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/cmake-build-folder.mjs: a package moved or copied keeps a build folder whose CMake cache
// names the old folders, which CMake refuses ("CMakeCache.txt directory ... is different from the
// directory where CMakeCache.txt was created"); the build configures in a fresh folder instead.
interface BuildFolderModule {
  staleCmakeCacheReason(cacheText: string, buildDirectory: string, sourceDirectory: string): string | null;
  freshenBuildFolder(buildDirectory: string, sourceDirectory: string): string | null;
}
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const script = new URL('../../scripts/cmake-build-folder.mjs', import.meta.url).href;
const { staleCmakeCacheReason, freshenBuildFolder } = (await import(script)) as BuildFolderModule;
const cache = join(packageRoot, 'build', 'CMakeCache.txt');
const root = mkdtempSync(join(tmpdir(), 'kreplay-cmake-build-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The package's own CMakeCache.txt with its folders replaced by those of another checkout. */
function movedCache(buildDirectory: string): string {
  const text = readFileSync(cache, 'utf8');
  const source = /^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$/m.exec(text)![1]!;
  const build = /^CMAKE_CACHEFILE_DIR:INTERNAL=(.*)$/m.exec(text)![1]!;
  writeFileSync(join(buildDirectory, 'CMakeCache.txt'), text.split(build).join('/old/checkout/packages/native/build').split(source).join('/old/checkout/packages/native'));
  return readFileSync(join(buildDirectory, 'CMakeCache.txt'), 'utf8');
}

describe.skipIf(!existsSync(cache))('the build folder of a moved or copied package', () => {
  it('tells a cache made for another source or build folder from one made here', () => {
    const build = join(packageRoot, 'build');
    expect(staleCmakeCacheReason(readFileSync(cache, 'utf8'), build, packageRoot)).toBeNull();
    const copy = join(root, 'decision');
    cpSync(join(packageRoot, 'build', 'CMakeCache.txt'), join(copy, 'CMakeCache.txt'), { recursive: true });
    const moved = movedCache(copy);
    expect(staleCmakeCacheReason(moved, copy, packageRoot)).toBe(`its CMakeCache.txt was made for /old/checkout/packages/native (in /old/checkout/packages/native/build), not ${packageRoot.replace(/\/$/, '')} (in ${copy})`);
    expect(staleCmakeCacheReason(moved.replace(/^CMAKE_CACHEFILE_DIR:INTERNAL=.*$/m, `CMAKE_CACHEFILE_DIR:INTERNAL=${copy}`), copy, packageRoot)).toMatch(/made for \/old\/checkout\/packages\/native /);
    expect(staleCmakeCacheReason('# no such entries\n', copy, packageRoot)).toBeNull();
  });

  it('configures in a fresh folder where CMake refuses the stale one', () => {
    const build = join(root, 'configure');
    cpSync(cache, join(build, 'CMakeCache.txt'));
    movedCache(build);
    const require = createRequire(join(packageRoot, 'package.json'));
    const cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
    const configure = () =>
      spawnSync(process.execPath, [cmakeJs, 'configure', `--CDKREPLAY_NODE=${process.execPath}`, '--CDKREPLAY_BUILD_TESTS=OFF', '--config', 'Release', '--log-level', 'warn', '--out', build], { cwd: packageRoot, encoding: 'utf8' });
    const refused = configure();
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/CMakeCache\.txt directory .* is different/);
    expect(freshenBuildFolder(build, packageRoot)).toMatch(/made for \/old\/checkout\/packages\/native/);
    const fresh = configure();
    expect(fresh.status, fresh.stdout + fresh.stderr).toBe(0);
    expect(freshenBuildFolder(build, packageRoot)).toBeNull();
  }, 120_000);
});
