#!/usr/bin/env node
// Bundles the cuda GPU tests (test/gpu/cuda-*.test.ts, the conformance kit, the package's sources) into one
// ESM file that runs with plain Node.js, for machines without node_modules (the GPU machine):
// `vitest` is replaced by scripts/gpu-runner/vitest-shim.mjs, and the user-kernel test's PTX is
// copied beside the bundle. Also bundles scripts/measure-cuda.mjs and check-cuda-device-fault.mjs
// (build dist/ first). Usage:
//   node scripts/bundle-gpu-tests.mjs <output folder>     (default: <repository>/.device)
//   KREPLAY_NATIVE_BINDING=<folder>/kreplay.node node <folder>/cuda-tests.mjs [report.json]
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = process.argv[2] ?? join(packageRoot, '..', '..', '.device');
const require = createRequire(join(packageRoot, 'package.json'));
const vitestRequire = createRequire(require.resolve('vitest/package.json'));
const { build } = await import(vitestRequire.resolve('esbuild'));

const shim = join(packageRoot, 'scripts', 'gpu-runner', 'vitest-shim.mjs');
const testFiles = readdirSync(join(packageRoot, 'test', 'gpu'))
  .filter((name) => name.startsWith('cuda-') && name.endsWith('.test.ts'))
  .sort();
const entry = [
  `import { runCollected } from ${JSON.stringify(shim)};`,
  `import { writeFileSync } from 'node:fs';`,
  ...testFiles.map((name) => `import ${JSON.stringify(join(packageRoot, 'test', 'gpu', name))};`),
  `const summary = await runCollected();`,
  `if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(summary, null, 2));`,
  `process.exitCode = summary.failed > 0 ? 1 : 0;`,
].join('\n');

mkdirSync(join(output, 'kernels'), { recursive: true });
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // The package says sideEffects: false; test files are imported for their side effects.
  ignoreAnnotations: true,
  // Modules bundled from CommonJS call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as kreplayCreateRequire } from 'node:module'; const require = kreplayCreateRequire(import.meta.url);" },
  nodePaths: [join(dirname(vitestRequire.resolve('vitest/package.json')), '..')],
};
await build({
  ...common,
  stdin: { contents: entry, resolveDir: packageRoot, sourcefile: 'gpu-tests-entry.mjs', loader: 'js' },
  alias: { vitest: shim },
  outfile: join(output, 'cuda-tests.mjs'),
});
for (const script of ['measure-cuda.mjs', 'measure-cupti-checkpoint.mjs', 'check-cuda-device-fault.mjs']) {
  await build({ ...common, entryPoints: [join(packageRoot, 'scripts', script)], outfile: join(output, script) });
}
copyFileSync(join(packageRoot, 'test', 'gpu', 'kernels', 'scale-floats.ptx'), join(output, 'kernels', 'scale-floats.ptx'));
console.log(`bundled ${testFiles.length} test files, measure-cuda, measure-cupti-checkpoint and check-cuda-device-fault into ${relative(process.cwd(), output) || '.'}`);
