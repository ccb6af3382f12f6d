#!/usr/bin/env node
// Regenerates the committed AMDGPU code objects of the hsa driver from src/kernels-amdgpu/*.cl:
//   src/kernels-amdgpu/<target>.hsaco               one per target, code object v5, all kernels
//   src/drivers/hsa/__fixtures__/fill-gfx90a-v4.hsaco a code object v4 the metadata tests also read
//   src/drivers/hsa/__fixtures__/implicit-arguments-gfx90a-v5.hsaco a kernel with hidden arguments
// The addon build never runs this: it embeds the committed files, so building needs no clang.
//
// Needs clang >= 19 with the AMDGPU target (gfx942 needs 19) and ld.lld of the same LLVM, e.g. on
// Debian 12: `apt-get update && apt-get install clang-19 lld-19`. Set KREPLAY_CLANG to choose the
// compiler (default: the first of clang-19, clang-20, clang-21, clang-22, clang found on PATH).
// No ROCm, HIP or device library is needed: the kernels are OpenCL C using clang builtins only.
//   node scripts/build-amdgpu-kernels.mjs
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(packageRoot, 'src', 'kernels-amdgpu');
const fixtures = join(packageRoot, 'src', 'drivers', 'hsa', '__fixtures__');

/** The processors the addon carries code objects for (the hsa driver refuses other GPUs). */
const targets = ['gfx90a', 'gfx942', 'gfx1100'];

// -ffp-contract=off and the OpenCL FP_CONTRACT pragma: no FMA contraction (bit-exact with the host
// driver); correctly rounded division (the stencil divides by 3); no device library; argument names
// in the metadata (-cl-kernel-arg-info), which the tests compare with the built-in kernel descriptors.
const flags = [
  '-x', 'cl', '-cl-std=CL2.0', '-target', 'amdgcn-amd-amdhsa', '-nogpulib', '-O3', '-cl-kernel-arg-info',
  '-ffp-contract=off', '-cl-fp32-correctly-rounded-divide-sqrt', '-Wall', '-Wextra', '-Werror',
];

const clang = findClang();
console.log(`[native] [kernels] using ${clang}: ${run(clang, ['--version']).split('\n')[0]}`);
for (const target of targets) {
  build(join(sources, 'kreplay-kernels.cl'), join(sources, `${target}.hsaco`), [`-mcpu=${target}`, '-mcode-object-version=5']);
}
build(join(sources, 'fill.cl'), join(fixtures, 'fill-gfx90a-v4.hsaco'), ['-mcpu=gfx90a', '-mcode-object-version=4']);
build(join(fixtures, 'implicit-arguments.cl'), join(fixtures, 'implicit-arguments-gfx90a-v5.hsaco'), [
  '-mcpu=gfx90a',
  '-mcode-object-version=5',
]);

function build(source, output, extra) {
  run(clang, [...flags, ...extra, '-I', sources, source, '-o', output]);
  chmodSync(output, 0o644); // data, not a program
  const digest = createHash('sha256').update(readFileSync(output)).digest('hex').slice(0, 16);
  console.log(`[native] [kernels] ${relative(packageRoot, output)} (sha256 ${digest}…)`);
}

function findClang() {
  const candidates = process.env.KREPLAY_CLANG
    ? [process.env.KREPLAY_CLANG]
    : ['clang-19', 'clang-20', 'clang-21', 'clang-22', 'clang'];
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-print-targets'], { encoding: 'utf8' });
    if (probe.status === 0 && /amdgcn/.test(probe.stdout)) return candidate;
  }
  fail(
    `no clang with the AMDGPU target was found (tried ${candidates.join(', ')}). Install clang 19 or newer ` +
      'and its lld (Debian 12: apt-get update && apt-get install clang-19 lld-19), or set KREPLAY_CLANG',
  );
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

function fail(message) {
  console.error(`[native] [kernels] ${message}.`);
  process.exit(1);
}
