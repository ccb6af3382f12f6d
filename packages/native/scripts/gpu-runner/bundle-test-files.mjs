// Bundles test files into one ESM file that runs with plain Node.js against the vitest stand-in
// (vitest-shim.mjs): the GPU machine has Node.js but no node_modules. Used by this package's
// bundle-gpu-tests.mjs and by packages that run their own GPU tests there (e.g. @kreplay/snapshot).
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shim = join(packageRoot, 'scripts', 'gpu-runner', 'vitest-shim.mjs');
const vitestRequire = createRequire(createRequire(join(packageRoot, 'package.json')).resolve('vitest/package.json'));

/** esbuild, from vitest's own dependencies. */
export async function loadEsbuild() {
  return import(vitestRequire.resolve('esbuild'));
}

/** Options every GPU-machine bundle shares. */
export const commonBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // Packages say sideEffects: false; test files are imported for their side effects.
  ignoreAnnotations: true,
  // Modules bundled from CommonJS call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as kreplayCreateRequire } from 'node:module'; const require = kreplayCreateRequire(import.meta.url);" },
  nodePaths: [join(dirname(vitestRequire.resolve('vitest/package.json')), '..')],
};

/**
 * Bundles `testFiles` (absolute paths) into `outfile`; running it runs them and, given a path as
 * its first argument, writes the summary there as JSON. Exits 1 when a test failed.
 */
export async function bundleTestFiles({ testFiles, resolveDir, outfile }) {
  const { build } = await loadEsbuild();
  const entry = [
    `import { runCollected } from ${JSON.stringify(shim)};`,
    `import { writeFileSync } from 'node:fs';`,
    ...testFiles.map((file) => `import ${JSON.stringify(file)};`),
    `const summary = await runCollected();`,
    `if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(summary, null, 2));`,
    `process.exitCode = summary.failed > 0 ? 1 : 0;`,
  ].join('\n');
  await build({
    ...commonBundleOptions,
    stdin: { contents: entry, resolveDir, sourcefile: 'gpu-tests-entry.mjs', loader: 'js' },
    alias: { vitest: shim },
    outfile,
  });
}

/**
 * Bundles every test/gpu/*.test.ts of the package at `packageRoot` into `<output>/<name>`, for a
 * package's own scripts/bundle-gpu-tests.mjs: `output` defaults to <repository>/.device, the
 * folder this package's bundle goes to.
 */
export async function bundlePackageGpuTests({ packageRoot, name, output = join(packageRoot, '..', '..', '.device') }) {
  const folder = join(packageRoot, 'test', 'gpu');
  const testFiles = readdirSync(folder)
    .filter((file) => file.endsWith('.test.ts'))
    .sort()
    .map((file) => join(folder, file));
  mkdirSync(output, { recursive: true });
  const outfile = join(output, name);
  await bundleTestFiles({ testFiles, resolveDir: packageRoot, outfile });
  console.log(`bundled ${testFiles.length} test file(s) into ${relative(process.cwd(), outfile)}`);
}
