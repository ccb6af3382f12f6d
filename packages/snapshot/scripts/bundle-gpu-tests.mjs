#!/usr/bin/env node
// Bundles the strategy kit on the GPU drivers (test/gpu/*.test.ts) into <output>/strategy-kit-tests.mjs,
// which runs with plain Node.js on a machine without node_modules (the GPU machine), beside the
// folder @kreplay/native's scripts/bundle-gpu-tests.mjs makes. Usage:
//   node scripts/bundle-gpu-tests.mjs <output folder>     (default: <repository>/.device)
//   KREPLAY_NATIVE_BINDING=<folder>/kreplay.node node <folder>/strategy-kit-tests.mjs [report.json]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePackageGpuTests } from '../../native/scripts/gpu-runner/bundle-test-files.mjs';

await bundlePackageGpuTests({ packageRoot: join(dirname(fileURLToPath(import.meta.url)), '..'), name: 'strategy-kit-tests.mjs', output: process.argv[2] });
