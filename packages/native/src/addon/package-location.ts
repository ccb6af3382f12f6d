import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the files of this package are, seen from a running module of it. @internal */
export interface PackageLocation {
  /** The package root (holding `package.json`, `build/` and `prebuilds/`). */
  readonly packageRoot: string;
  /** The folder of the running module (`dist/` in the published package, a folder of `src/` in tests). */
  readonly moduleDirectory: string;
}

/**
 * The package root and module folder of the module at `moduleUrl` (its `import.meta.url`). The root
 * is the nearest folder above the module whose `package.json` is this package's, so that the answer
 * is the same from the bundle in `dist/` and from a source file in any folder of `src/`; a module
 * bundled elsewhere (no such `package.json` above it) takes the folder above its own, as `dist/` does.
 * @internal
 */
export function packageLocation(moduleUrl: string): PackageLocation {
  const moduleDirectory = dirname(fileURLToPath(moduleUrl));
  for (let folder = moduleDirectory; ; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      if (packageName(manifest) === ownName) return { packageRoot: folder, moduleDirectory };
      break;
    }
    if (dirname(folder) === folder) break;
  }
  return { packageRoot: join(moduleDirectory, '..'), moduleDirectory };
}

const ownName = '@kreplay/native';

function packageName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
