#!/usr/bin/env node
// Builds the self-contained CLI: bundle/kreplay.mjs (every @kreplay package inlined) with
// bundle/kreplay.node beside it, which the native package finds "next to the bundle". Copy the
// folder to a machine with Node.js >= 20.17 and run `node kreplay.mjs info`; nothing else is needed.
// With --out DIR the two files are copied there too (e.g. --out ../../.device).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const addon = resolve(packageDirectory, '..', 'native', 'build', 'Release', 'kreplay.node');
if (!existsSync(addon)) {
  console.error(`kreplay bundle: ${addon} does not exist. Build it first: pnpm --filter @kreplay/native build.`);
  process.exit(1);
}
execFileSync('npx', ['tsup', '--config', 'tsup.bundle.config.ts'], { cwd: packageDirectory, stdio: 'inherit' });
const bundleDirectory = join(packageDirectory, 'bundle');
copyFileSync(addon, join(bundleDirectory, 'kreplay.node'));
const outIndex = process.argv.indexOf('--out');
if (outIndex > 0) {
  const target = resolve(process.cwd(), process.argv[outIndex + 1] ?? '');
  mkdirSync(target, { recursive: true });
  for (const file of ['kreplay.mjs', 'kreplay.node']) copyFileSync(join(bundleDirectory, file), join(target, file));
  console.log(`kreplay bundle: copied kreplay.mjs and kreplay.node to ${target}`);
}
console.log(`kreplay bundle: ${join(bundleDirectory, 'kreplay.mjs')} and kreplay.node`);
