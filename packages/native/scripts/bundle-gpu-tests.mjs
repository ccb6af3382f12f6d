#!/usr/bin/env node
// Bundles the cuda GPU tests (test/gpu/cuda-*.test.ts, the conformance kit, the package's sources) into one
// ESM file that runs with plain Node.js, for machines without node_modules (the GPU machine):
// `vitest` is replaced by scripts/gpu-runner/vitest-shim.mjs, and the user-kernel tests' PTX is
// copied beside the bundle, with the fixed-address test's child script, the capture library's GPU test
// (test/gpu/capture/*.test.ts) sources and build/Release/libkreplay-capture.so (found there by
// captureLibraryPath). Also bundles scripts/measure-cuda.mjs and check-cuda-device-fault.mjs
// (build dist/ first). Usage:
//   node scripts/bundle-gpu-tests.mjs <output folder>     (default: <repository>/.device)
//   KREPLAY_NATIVE_BINDING=<folder>/kreplay.node node <folder>/cuda-tests.mjs [report.json]
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleTestFiles, commonBundleOptions, loadEsbuild } from './gpu-runner/bundle-test-files.mjs';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = process.argv[2] ?? join(packageRoot, '..', '..', '.device');
const testFiles = [
  ...readdirSync(join(packageRoot, 'test', 'gpu'))
    .filter((name) => name.startsWith('cuda-') && name.endsWith('.test.ts'))
    .sort(),
  ...readdirSync(join(packageRoot, 'test', 'gpu', 'capture'))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => join('capture', name)),
];

mkdirSync(join(output, 'kernels'), { recursive: true });
await bundleTestFiles({
  testFiles: testFiles.map((name) => join(packageRoot, 'test', 'gpu', name)),
  resolveDir: packageRoot,
  outfile: join(output, 'cuda-tests.mjs'),
});
const { build } = await loadEsbuild();
for (const script of ['measure-cuda.mjs', 'measure-cupti-checkpoint.mjs', 'check-cuda-device-fault.mjs']) {
  await build({ ...commonBundleOptions, entryPoints: [join(packageRoot, 'scripts', script)], outfile: join(output, script) });
}
for (const kernel of ['scale-floats.ptx', 'capture-fixture-axpy.ptx', 'capture-fixture-block-sums.ptx']) {
  copyFileSync(join(packageRoot, 'test', 'gpu', 'kernels', kernel), join(output, 'kernels', kernel));
}
// The fixed-address test runs this in a fresh process; it finds it beside the bundle.
await build({ ...commonBundleOptions, ignoreAnnotations: false, entryPoints: [join(packageRoot, 'test', 'gpu', 'fixed-address-child.ts')], outfile: join(output, 'fixed-address-child.mjs') });
for (const program of ['capture-fixture-program.cu', 'capture-sequences-program.cu', 'capture-graphs-program.cu']) {
  copyFileSync(join(packageRoot, 'test', 'gpu', 'capture', program), join(output, program));
}
copyFileSync(join(packageRoot, 'test', 'capture-fixtures', 'axpy.cu'), join(output, 'axpy.cu'));
// cuda-graphs.test.ts builds the program from every .cpp of this folder with g++, beside the bundle.
cpSync(join(packageRoot, 'test', 'gpu', 'cuda-graphs-program'), join(output, 'cuda-graphs-program'), { recursive: true });
const captureLibrary = join(packageRoot, 'build', 'Release', 'libkreplay-capture.so');
if (existsSync(captureLibrary)) copyFileSync(captureLibrary, join(output, 'libkreplay-capture.so'));
console.log(`bundled ${testFiles.length} test files, measure-cuda, measure-cupti-checkpoint and check-cuda-device-fault into ${relative(process.cwd(), output) || '.'}`);
