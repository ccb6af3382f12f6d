// The build folder of a package that was moved or copied (a project copied to another path, a
// workspace renamed) keeps a CMakeCache.txt naming the old source and build folders, and CMake
// refuses to configure with it ("The current CMakeCache.txt directory ... is different than the
// directory ... where CMakeCache.txt was created"). The build then starts in a fresh build folder.
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A path as CMake would see the folder: real where it exists, else resolved. */
function canonical(path) {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The value of a cache entry (`NAME:TYPE=value`), or null. */
function cacheEntry(cacheText, name) {
  const match = new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm').exec(cacheText);
  return match ? match[1].trim() : null;
}

/**
 * Why a CMakeCache.txt (its text) in `buildDirectory` cannot configure `sourceDirectory`: it was
 * made for another source folder, or in another build folder; null when it fits, or names neither.
 * @param {string} cacheText
 * @param {string} buildDirectory
 * @param {string} sourceDirectory
 * @returns {string | null}
 */
export function staleCmakeCacheReason(cacheText, buildDirectory, sourceDirectory) {
  const cachedSource = cacheEntry(cacheText, 'CMAKE_HOME_DIRECTORY');
  const cachedBuild = cacheEntry(cacheText, 'CMAKE_CACHEFILE_DIR');
  const source = canonical(sourceDirectory);
  const build = canonical(buildDirectory);
  const sourceMoved = cachedSource !== null && canonical(cachedSource) !== source;
  const buildMoved = cachedBuild !== null && canonical(cachedBuild) !== build;
  if (!sourceMoved && !buildMoved) return null;
  return `its CMakeCache.txt was made for ${cachedSource ?? 'another source folder'} (in ${cachedBuild ?? 'another build folder'}), not ${source} (in ${build})`;
}

/**
 * Makes `buildDirectory` fit to configure `sourceDirectory`: a build folder whose CMakeCache.txt was
 * made for another source or build folder (the package was moved or copied) is removed, with what
 * was built in it, so that CMake configures afresh. A folder without a cache, or with one made here,
 * is left as it is.
 * @param {string} buildDirectory
 * @param {string} sourceDirectory
 * @returns {string | null} why the folder was removed, or null when it was kept.
 */
export function freshenBuildFolder(buildDirectory, sourceDirectory) {
  const cache = join(buildDirectory, 'CMakeCache.txt');
  if (!existsSync(cache)) return null;
  let text;
  try {
    text = readFileSync(cache, 'utf8');
  } catch {
    return null;
  }
  const reason = staleCmakeCacheReason(text, buildDirectory, sourceDirectory);
  if (reason !== null) rmSync(buildDirectory, { recursive: true, force: true });
  return reason;
}
