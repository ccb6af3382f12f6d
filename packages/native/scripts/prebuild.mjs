#!/usr/bin/env node
// Builds the prebuilt addon of one target into its package, packages/native-<target>/ (published as
// @kreplay/native-<target>, an optional dependency of @kreplay/native):
//   kreplay.node            the addon
//   libkreplay-capture.so   the capture library built with it (what captureLibraryPath finds when
//                           there is no source build)
//   prebuild.json           what src/load-binding.ts checks: { napi, platform, arch, libc, glibc: the
//                           highest GLIBC_x.y their dynamic symbols name (objdump -T), builtWith }
//   node scripts/prebuild.mjs [--target linux-x64-gnu|linux-arm64-gnu]   (default: this machine's)
// The files are linked with KREPLAY_PORTABLE=ON (src/portable/portable.cmake: libstdc++ and libgcc
// linked in, stripped, glibc 2.28 at most) as build/portable/*, from the objects of the source build in
// build/; a target of another architecture is cross-compiled in build/prebuild-<target>/ (arm64 on
// x64: Debian's g++-aarch64-linux-gnu). Both files
// are then checked with objdump -T / -p (scripts/prebuild-symbols.mjs): a file that needs a glibc above
// 2.28, any libstdc++ or libgcc version or a library outside glibc is refused, and nothing is copied.
// The platform package's prepack runs this, so a packed tarball always holds a fresh, checked prebuild.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAddon, packageRoot } from './build-addon.mjs';
import { judgeNeeds, readNeeds } from './prebuild-symbols.mjs';

/** The targets, each with the architecture Node.js names and the GNU triple of its cross toolchain. */
const targets = {
  'linux-x64-gnu': { arch: 'x64', triple: 'x86_64-linux-gnu' },
  'linux-arm64-gnu': { arch: 'arm64', triple: 'aarch64-linux-gnu' },
};

const targetIndex = process.argv.indexOf('--target');
const targetName = targetIndex > 0 ? process.argv[targetIndex + 1] : `${process.platform}-${process.arch}-gnu`;
const target = targets[targetName];
if (target === undefined || process.platform !== 'linux') {
  fail(`no prebuild target ${targetName} on ${process.platform}; the targets are ${Object.keys(targets).join(', ')}, built on Linux.`);
}
if (!process.report.getReport().header.glibcVersionRuntime) fail('prebuilds are built on a glibc Linux (this one runs another C library).');
const cross = target.arch !== process.arch;
const objdump = cross ? `${target.triple}-objdump` : 'objdump';
if (cross) {
  for (const tool of [`${target.triple}-g++`, objdump]) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      fail(`${targetName} is cross-compiled on this ${process.arch} machine and ${tool} was not found. On Debian or Ubuntu: apt-get install g++-${target.triple}.`);
    }
  }
}

// This machine's target links in build/ beside the source build (the same objects); another
// architecture's compiles in a folder of its own.
const buildDirectory = cross ? join(packageRoot, 'build', `prebuild-${targetName}`) : join(packageRoot, 'build');
const addon = join(buildDirectory, 'portable', 'kreplay.node');
const captureLibrary = join(buildDirectory, 'portable', 'libkreplay-capture.so');
for (const file of [addon, captureLibrary]) rmSync(file, { force: true });
const toolchain = join(packageRoot, 'src', 'portable', `${target.triple}.toolchain.cmake`);
buildAddon({ buildDirectory, definitions: { KREPLAY_PORTABLE: 'ON', ...(cross ? { CMAKE_TOOLCHAIN_FILE: toolchain } : {}) } });
for (const file of [addon, captureLibrary]) if (!existsSync(file)) fail(`the build finished but ${file} is missing.`);

let glibc = '0';
for (const file of [addon, captureLibrary]) {
  const needs = readNeeds(file, objdump);
  const judged = judgeNeeds(needs);
  if (judged.problems.length > 0) {
    fail(`${file} would not load on every glibc >= 2.28 system:\n  ${judged.problems.join('\n  ')}\nsrc/portable/ lists the functions provided for older glibc; add the ones named here.`);
  }
  if (judged.glibc !== undefined && judged.glibc.localeCompare(glibc, undefined, { numeric: true }) > 0) glibc = judged.glibc;
}

const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
const destination = join(packageRoot, '..', `native-${targetName}`);
mkdirSync(destination, { recursive: true });
copyFileSync(addon, join(destination, 'kreplay.node'));
copyFileSync(captureLibrary, join(destination, 'libkreplay-capture.so'));
const manifest = {
  napi: Math.max(...packageJson.binary.napi_versions),
  platform: 'linux',
  arch: target.arch,
  libc: 'glibc',
  glibc,
  builtWith: {
    node: process.version,
    glibc: process.report.getReport().header.glibcVersionRuntime,
    compiler: compilerVersion(),
  },
};
writeFileSync(join(destination, 'prebuild.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const size = (file) => `${(statSync(join(destination, file)).size / 2 ** 20).toFixed(1)} MiB`;
console.log(`[native] [prebuild] ${destination}: kreplay.node ${size('kreplay.node')}, libkreplay-capture.so ${size('libkreplay-capture.so')}; ${JSON.stringify(manifest)}`);

/** The first line of `--version` of the C++ compiler CMake chose for the build. */
function compilerVersion() {
  try {
    const cache = readFileSync(join(buildDirectory, 'CMakeCache.txt'), 'utf8');
    const compiler = /^CMAKE_CXX_COMPILER:[A-Z]+=(.*)$/m.exec(cache)?.[1]?.trim() || (cross ? `${target.triple}-g++` : undefined);
    return compiler ? execFileSync(compiler, ['--version'], { encoding: 'utf8' }).split('\n')[0] : undefined;
  } catch {
    return undefined;
  }
}

function fail(message) {
  console.error(`[native] [prebuild] ${message}`);
  process.exit(1);
}
