import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Runtime } from '@kreplay/native';

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

/** `git rev-parse HEAD` in the working directory, or null when there is no git or no repository. */
export function gitCommit(): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    return /^[0-9a-f]{40,64}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
