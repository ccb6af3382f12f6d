import { execFileSync } from 'node:child_process';
import type { ExecFileSyncOptionsWithStringEncoding } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Runtime } from '@kreplay/native';

// Written by the CLI's bundle build (tsup `define`): the commit and bench version it was built from,
// for a bundle copied to a machine without the repository.
declare const KREPLAY_GIT_COMMIT_AT_BUILD: string | null | undefined;
declare const KREPLAY_BENCH_VERSION: string | undefined;

/** The machine a report was measured on. */
export interface MachineInfo {
  readonly hostname: string;
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly os: { readonly platform: string; readonly release: string; readonly arch: string; readonly version: string };
}

/** Versions of everything that measured. */
export interface ReportVersions {
  readonly node: string;
  readonly addon: string;
  readonly driver: string;
  /** The version of @kreplay/bench. */
  readonly bench: string;
}

/** The machine this process runs on. */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryBytes: os.totalmem(),
    os: { platform: os.platform(), release: os.release(), arch: os.arch(), version: os.version() },
  };
}

/** The versions of node, the addon, the driver and this package. */
export function reportVersions(runtime: Runtime): ReportVersions {
  return { node: process.version, addon: runtime.versions.addon, driver: runtime.versions.driver, bench: benchVersion() };
}

/** The version in the nearest package.json of @kreplay/bench above this module (src/ or dist/). */
function benchVersion(): string {
  if (typeof KREPLAY_BENCH_VERSION === 'string') return KREPLAY_BENCH_VERSION;
  for (let directory = new URL('.', import.meta.url); directory.pathname !== '/'; directory = new URL('..', directory)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', directory), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@kreplay/bench' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here: look one directory up
    }
  }
  return 'unknown';
}

const commitPattern = /^[0-9a-f]{7,64}$/;

function commitOfThisCheckout(): string | null {
  const options: ExecFileSyncOptionsWithStringEncoding = { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 };
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], options).trim();
    // Installed inside some other project's repository: its commit says nothing about kreplay.
    if (!existsSync(join(top, 'packages', 'bench', 'package.json'))) return null;
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], options).trim();
    return /^[0-9a-f]{40,64}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}

/**
 * The kreplay commit that measured, or null when it cannot be known. In order: `KREPLAY_GIT_COMMIT`
 * (a hexadecimal hash, for a copy of the tree without `.git`), the commit the CLI bundle was built
 * from, then `git rev-parse HEAD` in the checkout holding this module (not the working directory,
 * which may be any folder).
 */
export function gitCommit(): string | null {
  const fromEnvironment = process.env.KREPLAY_GIT_COMMIT?.trim().toLowerCase();
  if (fromEnvironment !== undefined && commitPattern.test(fromEnvironment)) return fromEnvironment;
  if (typeof KREPLAY_GIT_COMMIT_AT_BUILD === 'string' && commitPattern.test(KREPLAY_GIT_COMMIT_AT_BUILD)) return KREPLAY_GIT_COMMIT_AT_BUILD;
  return commitOfThisCheckout();
}
