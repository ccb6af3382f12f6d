#!/usr/bin/env node
// Builds the self-contained CLI: bundle/kreplay.mjs (every @kreplay package inlined) with
// bundle/kreplay.node and bundle/libkreplay-capture.so (the capture library `kreplay capture` injects)
// beside it, which the native package finds "next to the bundle", and Chart.js's
// UMD build (chart.umd.min.js), which HTML reports inline. Copy the folder to a machine with
// Node.js >= 20.17 and run `node kreplay.mjs info`; nothing else is needed.
// With --out DIR the files are copied there too (e.g. --out ../../.device).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const addon = resolve(packageDirectory, '..', 'native', 'build', 'Release', 'kreplay.node');
const captureLibrary = resolve(packageDirectory, '..', 'native', 'build', 'Release', 'libkreplay-capture.so');
// --without-addon: kreplay.mjs and chart.umd.min.js alone, as the package ships them (its prepack);
// `kreplay bench --slurm` adds the addon of the installing machine when it assembles a bundle.
const withoutAddon = process.argv.includes('--without-addon');
for (const file of withoutAddon ? [] : [addon, captureLibrary]) {
  if (!existsSync(file)) {
    console.error(`kreplay bundle: ${file} does not exist. Build it first: pnpm --filter @kreplay/native build.`);
    process.exit(1);
  }
}
execFileSync('npx', ['tsup', '--config', 'tsup.bundle.config.ts'], { cwd: packageDirectory, stdio: 'inherit' });
const bundleDirectory = join(packageDirectory, 'bundle');
if (!withoutAddon) {
  copyFileSync(addon, join(bundleDirectory, 'kreplay.node'));
  copyFileSync(captureLibrary, join(bundleDirectory, 'libkreplay-capture.so'));
}
const benchRequire = createRequire(resolve(packageDirectory, '..', 'bench', 'package.json'));
const chartLibrary = join(dirname(benchRequire.resolve('chart.js')), 'chart.umd.min.js');
copyFileSync(chartLibrary, join(bundleDirectory, 'chart.umd.min.js'));
const bundleFiles = withoutAddon ? ['kreplay.mjs', 'chart.umd.min.js'] : ['kreplay.mjs', 'kreplay.node', 'libkreplay-capture.so', 'chart.umd.min.js'];
const outIndex = process.argv.indexOf('--out');
if (outIndex > 0) {
  const target = resolve(process.cwd(), process.argv[outIndex + 1] ?? '');
  mkdirSync(target, { recursive: true });
  for (const file of bundleFiles) copyFileSync(join(bundleDirectory, file), join(target, file));
  console.log(`kreplay bundle: copied ${bundleFiles.join(', ')} to ${target}`);
}
console.log(`kreplay bundle: ${bundleDirectory} holds ${bundleFiles.join(', ')}`);
