#!/usr/bin/env node
// Bundles the strategy kit on the GPU drivers (test/gpu/*.test.ts) into <output>/strategy-kit-tests.mjs,
// which runs with plain Node.js on a machine without node_modules (the GPU machine), beside the
// folder @kreplay/native's scripts/bundle-gpu-tests.mjs makes. Usage:
//   node scripts/bundle-gpu-tests.mjs <output folder>     (default: <repository>/.device)
//   KREPLAY_NATIVE_BINDING=<folder>/kreplay.node node <folder>/strategy-kit-tests.mjs [report.json]
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleTestFiles } from '../../native/scripts/gpu-runner/bundle-test-files.mjs';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = process.argv[2] ?? join(packageRoot, '..', '..', '.device');
const testFiles = readdirSync(join(packageRoot, 'test', 'gpu'))
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => join(packageRoot, 'test', 'gpu', name));
mkdirSync(output, { recursive: true });
const outfile = join(output, 'strategy-kit-tests.mjs');
await bundleTestFiles({ testFiles, resolveDir: packageRoot, outfile });
console.log(`bundled ${testFiles.length} test file(s) into ${relative(process.cwd(), outfile)}`);
