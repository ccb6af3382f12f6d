#!/usr/bin/env node
// What a prebuilt kreplay.node or libkreplay-capture.so needs from the system it loads on, read with
// `objdump -T` (the versioned dynamic symbols) and `objdump -p` (the NEEDED libraries), and whether
// that fits the prebuild's promise: glibc 2.28 or newer, any libstdc++ (none needed).
//   node scripts/prebuild-symbols.mjs [--objdump aarch64-linux-gnu-objdump] FILE...
// prints, per file, the highest GLIBC_ version and the symbols that need it, and exits 1 when a file
// needs a glibc above 2.28, a GLIBCXX_ / CXXABI_ / GCC_ version, or a library outside glibc, or exports
// more than its entry points (its linked-in C++ would then stand in for the host program's, or the
// host's for its own).
// scripts/prebuild.mjs runs the same check on what it builds.
import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The newest glibc a prebuild may need (RHEL 8's). */
export const highestAllowedGlibc = '2.28';

/** Libraries of glibc itself, which every glibc system has. */
const glibcLibraries = /^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-(x86-64|aarch64)\.so\.[12])$/;

/** The entry points a prebuilt file may export: Node-API's (kreplay.node) and CUDA's injection (libkreplay-capture.so). */
const entryPoints = new Set(['napi_register_module_v1', 'node_api_module_get_api_version_v1', 'InitializeInjection']);

/**
 * The needs of a shared object: the NEEDED libraries, each symbol version its undefined dynamic
 * symbols name (GLIBC_2.17, GLIBCXX_3.4.21, ...) with those symbols, and the symbols it exports.
 * @param {string} file
 * @param {string} objdump the objdump that reads the file's architecture
 * @returns {{ needed: string[], versions: Map<string, string[]>, unversioned: string[], exported: string[] }}
 */
export function readNeeds(file, objdump = 'objdump') {
  const run = (flag) => {
    try {
      return execFileSync(objdump, [flag, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      throw new Error(`could not read ${file} with ${objdump} ${flag} (${error.message.split('\n')[0]}). Install binutils for its architecture.`);
    }
  };
  const needed = [...run('-p').matchAll(/^\s*NEEDED\s+(\S+)/gm)].map((match) => match[1]);
  const versions = new Map();
  // Undefined symbols with no version: from Node.js (napi_*) or a --wrap left without its __wrap_.
  const unversioned = [...run('-T').matchAll(/\*UND\*\s+\S+\s+(?:Base\s+)?(__wrap_\S+)\s*$/gm)].map((match) => match[1]);
  // Lines of undefined symbols: "0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.34) pthread_create"
  for (const match of run('-T').matchAll(/\*UND\*\s+\S+\s+(?:\(([A-Z_]+_[0-9.]+)\)|([A-Z_]+_[0-9.]+))\s+(\S+)/g)) {
    const version = match[1] ?? match[2];
    const symbol = match[3];
    versions.set(version, [...(versions.get(version) ?? []), symbol]);
  }
  // Lines of defined symbols: "0000000000038380 g    DF .text  0000000000000005  Base        napi_register_module_v1";
  // local ones (flag l: the section symbols .init and .data that arm64's linker lists) bind nothing.
  const exported = [...run('-T').matchAll(/^[0-9a-f]+\s(.{7})\s(\S+)\s+[0-9a-f]+\s+(?:\S+\s+)?(\S+)$/gm)]
    .filter((match) => match[2] !== '*UND*' && !match[1].startsWith('l'))
    .map((match) => match[3]);
  return { needed, versions, unversioned, exported };
}

/** Compares dotted version numbers part by part, as numbers. */
export function compareVersions(left, right) {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * The highest GLIBC_ version a file needs, and what it needs or exports that a prebuild must not.
 * @param {{ needed: string[], versions: Map<string, string[]>, unversioned: string[], exported?: string[] }} needs
 * @returns {{ glibc: string | undefined, problems: string[] }}
 */
export function judgeNeeds(needs) {
  let glibc;
  const problems = [];
  for (const [version, symbols] of [...needs.versions].sort()) {
    const [, family, number] = /^([A-Z_]+?)_([0-9.]+)$/.exec(version) ?? [];
    if (family === 'GLIBC') {
      if (glibc === undefined || compareVersions(number, glibc) > 0) glibc = number;
      if (compareVersions(number, highestAllowedGlibc) > 0) problems.push(`${version} (above ${highestAllowedGlibc}): ${symbols.join(', ')}`);
    } else {
      problems.push(`${version} (libstdc++ or libgcc must be linked in): ${symbols.join(', ')}`);
    }
  }
  if (needs.unversioned.length > 0) problems.push(`undefined without a version: ${needs.unversioned.join(', ')} (a --wrap without its __wrap_ function?)`);
  const foreign = needs.needed.filter((library) => !glibcLibraries.test(library));
  if (foreign.length > 0) problems.push(`NEEDED ${foreign.join(', ')} (only glibc's own libraries may be needed)`);
  const extra = (needs.exported ?? []).filter((symbol) => !entryPoints.has(symbol));
  if (extra.length > 0) problems.push(`exports ${extra.length} symbols beyond its entry points (${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ', ...' : ''}): link it with its .exports version script`);
  return { glibc, problems };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const objdumpIndex = args.indexOf('--objdump');
  const objdump = objdumpIndex >= 0 ? args.splice(objdumpIndex, 2)[1] : 'objdump';
  let failed = false;
  for (const file of args) {
    const needs = readNeeds(file, objdump);
    const { glibc, problems } = judgeNeeds(needs);
    const top = [...needs.versions].filter(([version]) => version === `GLIBC_${glibc}`).flatMap(([, symbols]) => symbols);
    console.log(`${basename(file)}: glibc >= ${glibc} (${top.join(', ')}); needs ${needs.needed.join(', ')}`);
    for (const problem of problems) console.error(`  not portable: ${problem}`);
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
