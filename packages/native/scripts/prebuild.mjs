#!/usr/bin/env node
// Builds the prebuilt addon of this machine in the prebuildify / node-gyp-build layout:
//   prebuilds/<platform>-<arch>/kreplay.napi.<glibc|musl>.node
//   prebuilds/<platform>-<arch>/libkreplay-capture.<glibc|musl>.so   the capture library built with it
//     (what captureLibraryPath finds when there is no source build)
//   prebuilds/<platform>-<arch>/kreplay.napi.<glibc|musl>.json   what src/addon/load-binding.ts checks:
//     { napi, platform, arch, libc, glibc: the lowest glibc it needs and glibcxx: the lowest
//       libstdc++ symbol version, both the highest GLIBC_x.y / GLIBCXX_x.y.z its dynamic symbols name
//       (objdump -T), builtWith: the Node.js and glibc of the build }
// The addon is built as an install builds it (the addon alone, scripts/build-addon.mjs
// --addon-only: incremental in build/, then linked afresh) and copied under its tagged name. A
// prebuild needs the glibc and libstdc++ of the machine that made it or newer: make prebuilds on the
// oldest system to support. The package's prepack runs this, so a packed tarball holds the prebuild of
// the packing machine beside any others copied into prebuilds/ from their own machines; the prebuild of
// this platform and C library is replaced.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAddon, captureLibraryPath, packageRoot } from './build-addon.mjs';

const libc = runningLibc();
const built = buildAddon({ relink: true });

const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
const napi = Math.max(...packageJson.binary.napi_versions);
const tags = ['napi', ...(libc ? [libc] : [])].join('.');
const folder = join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`);
const target = join(folder, `kreplay.${tags}.node`);
mkdirSync(folder, { recursive: true });
copyFileSync(built, target);
const captureTarget = join(folder, libc ? `libkreplay-capture.${libc}.so` : 'libkreplay-capture.so');
copyFileSync(captureLibraryPath(), captureTarget);

const manifest = {
  napi,
  platform: process.platform,
  arch: process.arch,
  ...(libc ? { libc } : {}),
  ...(libc === 'glibc' ? highestSymbolVersions(target) : {}),
  builtWith: {
    node: process.version,
    ...(libc === 'glibc' ? { glibc: process.report.getReport().header.glibcVersionRuntime } : {}),
  },
};
writeFileSync(target.replace(/\.node$/, '.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`[native] [prebuild] ${target}: ${JSON.stringify(manifest)}`);
console.log(`[native] [prebuild] ${captureTarget}`);

function runningLibc() {
  if (process.platform !== 'linux') return undefined;
  const report = process.report.getReport();
  if (report.header.glibcVersionRuntime) return 'glibc';
  if (report.sharedObjects.some((path) => /(^|\/)(ld-musl-|libc\.musl-)/.test(path))) return 'musl';
  console.error('[native] [prebuild] this Linux runs neither glibc nor musl; no prebuild can be tagged for it.');
  process.exit(1);
}

/** The highest GLIBC_ and GLIBCXX_ versions the addon's dynamic symbols name: what it needs. */
function highestSymbolVersions(file) {
  let symbols;
  try {
    symbols = execFileSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    console.error(`[native] [prebuild] could not read the symbols of ${file} (${error.message}). Install binutils (objdump).`);
    process.exit(1);
  }
  const highest = (prefix) =>
    [...symbols.matchAll(new RegExp(`\\(${prefix}_(\\d+(?:\\.\\d+)+)\\)`, 'g'))]
      .map((match) => match[1])
      .reduce((top, version) => (top === undefined || compare(version, top) > 0 ? version : top), undefined);
  return { glibc: highest('GLIBC'), glibcxx: highest('GLIBCXX') };
}

function compare(left, right) {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
