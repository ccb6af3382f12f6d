#!/usr/bin/env node
// The package's install script. It keeps the addon that loads here, else builds it from source:
// 1. a build from source is asked for (`npm rebuild`, `npm install --build-from-source`, or
//    KREPLAY_BUILD_FROM_SOURCE=1): build, whatever is there;
// 2. otherwise load the addon the way the package does (dist/binding-probe.js in a child process: a
//    local build, then a prebuild that fits this platform, C library and glibc): keep it if it loads;
// 3. otherwise build from source (the addon alone, offline: Node-API headers come from the
//    node-api-headers and node-addon-api packages), then check that the build loads.
// In the repository, before dist/ exists, it builds (step 3).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildAddon, packageRoot } from './build-addon.mjs';

const probe = join(packageRoot, 'dist', 'binding-probe.js');
const truthy = (value) => value !== undefined && value !== '' && value !== '0' && value !== 'false';
const environment = process.env;
const asked =
  environment.npm_command === 'rebuild' ||
  truthy(environment.npm_config_build_from_source) ||
  truthy(environment.KREPLAY_BUILD_FROM_SOURCE);

if (asked) {
  log('building from source, as asked.');
} else if (existsSync(probe)) {
  const found = runProbe();
  if (found.status === 0) {
    log(`using ${found.stdout.trim()}`);
    process.exit(0);
  }
  log(`no addon loads here (${found.stderr.trim()}); building from source.`);
} else {
  log('building from source (no dist/ to check an addon with).');
}

buildAddon({ tests: false, relink: true });
if (existsSync(probe)) {
  const found = runProbe();
  if (found.status !== 0) {
    console.error(`[native] [install] the addon was built but does not load: ${found.stderr.trim()}`);
    process.exit(1);
  }
  log(`built ${found.stdout.trim()}`);
}

function runProbe() {
  // KREPLAY_NATIVE_BINDING would let a file outside the package stand in for it: not at install.
  const { KREPLAY_NATIVE_BINDING: _ignored, ...rest } = environment;
  return spawnSync(process.execPath, [probe], { cwd: packageRoot, encoding: 'utf8', env: rest });
}

function log(message) {
  console.log(`[native] [install] ${message}`);
}
