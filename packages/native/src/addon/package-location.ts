import { existsSync } from 'node:fs';
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
 * The package root and module folder of the module at `moduleUrl` (its `import.meta.url`): the
 * root is the nearest folder above the module that holds a `package.json`, so that the answer is the
 * same from the bundle in `dist/` and from a source file in any folder of `src/`.
 * @internal
 */
export function packageLocation(moduleUrl: string): PackageLocation {
  const moduleDirectory = dirname(fileURLToPath(moduleUrl));
  let folder = moduleDirectory;
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder);
  const packageRoot = existsSync(join(folder, 'package.json')) ? folder : join(moduleDirectory, '..');
  return { packageRoot, moduleDirectory };
}
