import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureLibraryPath, nativeAddonPath } from '@kreplay/native';

/** The files of the self-contained bundle: the CLI in one file and Chart.js for HTML reports. */
const bundleScripts = ['kreplay.mjs', 'chart.umd.min.js'] as const;

/** Where {@link slurmBundleDirectory} looks. */
export interface SlurmBundleSearch {
  /** `--bundle`, when given. */
  readonly given: string | undefined;
  /** The script this process runs (`process.argv[1]`). */
  readonly running: string;
  /** This package's `bundle/` folder. */
  readonly packaged: string;
  /** The folder of the task reports, where a bundle is assembled when one must be. */
  readonly tasksDirectory: string;
  /** The addon and capture library this process uses (copied into an assembled bundle). */
  readonly addon: () => string;
  readonly captureLibrary: () => string | undefined;
}

/**
 * The folder of kreplay.mjs and kreplay.node every Slurm task runs: `--bundle`; else the running
 * bundle; else this package's `bundle/` when it holds the addon (`pnpm --filter @kreplay/cli bundle`
 * in the repository); else, when this package ships `bundle/kreplay.mjs` (an npm install: it is built
 * when the package is packed), a bundle assembled in `<tasks>/bundle/` from it, Chart.js's UMD build
 * and the kreplay.node and libkreplay-capture.so this process loads. Otherwise this package's
 * `bundle/`, which the submission then refuses with what to do.
 * @throws {KreplayError} when the bundle must be assembled and no addon loads here.
 */
export function slurmBundleDirectory(search: SlurmBundleSearch): string {
  if (search.given !== undefined) return resolve(search.given);
  if (basename(search.running) === 'kreplay.mjs' && existsSync(join(dirname(search.running), 'kreplay.node'))) return dirname(resolve(search.running));
  if (existsSync(join(search.packaged, 'kreplay.node')) || !existsSync(join(search.packaged, 'kreplay.mjs'))) return search.packaged;
  const assembled = join(search.tasksDirectory, 'bundle');
  mkdirSync(assembled, { recursive: true });
  for (const file of bundleScripts) if (existsSync(join(search.packaged, file))) copyFileSync(join(search.packaged, file), join(assembled, file));
  copyFileSync(search.addon(), join(assembled, 'kreplay.node'));
  const captureLibrary = search.captureLibrary();
  if (captureLibrary !== undefined) copyFileSync(captureLibrary, join(assembled, 'libkreplay-capture.so'));
  return assembled;
}

/** {@link slurmBundleDirectory} for this process and package. */
export function defaultSlurmBundleDirectory(given: string | undefined, tasksDirectory: string): string {
  return slurmBundleDirectory({
    given,
    running: process.argv[1] ?? '',
    packaged: fileURLToPath(new URL('../bundle', import.meta.url)),
    tasksDirectory,
    addon: nativeAddonPath,
    captureLibrary: () => {
      try {
        return captureLibraryPath();
      } catch {
        return undefined; // the benchmark captures nothing; the bundle runs without it
      }
    },
  });
}
