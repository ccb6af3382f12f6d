import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { slurmBundleDirectory, type SlurmBundleSearch } from './slurm-bundle.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A folder holding the given files (name -> text). */
function folderWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kreplay-slurm-bundle-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

function searchIn(root: string, overrides: Partial<SlurmBundleSearch> = {}): SlurmBundleSearch {
  return {
    given: undefined,
    running: join(root, 'node_modules/@kreplay/cli/dist/bin.js'),
    packaged: join(root, 'node_modules/@kreplay/cli/bundle'),
    tasksDirectory: join(root, 'out.json.tasks'),
    addon: () => join(root, 'addon/kreplay.node'),
    captureLibrary: () => join(root, 'addon/libkreplay-capture.so'),
    ...overrides,
  };
}

describe('slurmBundleDirectory', () => {
  it('assembles a bundle in the tasks folder from the shipped kreplay.mjs and the addon this process loads (an npm install)', () => {
    const root = folderWith({
      'node_modules/@kreplay/cli/bundle/kreplay.mjs': 'cli',
      'node_modules/@kreplay/cli/bundle/chart.umd.min.js': 'chart',
      'addon/kreplay.node': 'addon',
      'addon/libkreplay-capture.so': 'capture',
    });
    const bundle = slurmBundleDirectory(searchIn(root));
    expect(bundle).toBe(join(root, 'out.json.tasks', 'bundle'));
    expect(readdirSync(bundle).sort()).toEqual(['chart.umd.min.js', 'kreplay.mjs', 'kreplay.node', 'libkreplay-capture.so']);
    expect(readFileSync(join(bundle, 'kreplay.node'), 'utf8')).toBe('addon');
  });

  it('assembles it without the capture library when there is none', () => {
    const root = folderWith({ 'node_modules/@kreplay/cli/bundle/kreplay.mjs': 'cli', 'addon/kreplay.node': 'addon' });
    const bundle = slurmBundleDirectory(searchIn(root, { captureLibrary: () => undefined }));
    expect(readdirSync(bundle).sort()).toEqual(['kreplay.mjs', 'kreplay.node']);
  });

  it('takes --bundle, else the running bundle, else a packaged bundle that holds its addon, as they are', () => {
    const root = folderWith({ 'elsewhere/kreplay.mjs': 'cli', 'elsewhere/kreplay.node': 'addon', 'node_modules/@kreplay/cli/bundle/kreplay.mjs': 'cli' });
    const failing = () => {
      throw new Error('no addon is needed');
    };
    expect(slurmBundleDirectory(searchIn(root, { given: 'relative/bundle', addon: failing }))).toMatch(/\/relative\/bundle$/);
    expect(slurmBundleDirectory(searchIn(root, { running: join(root, 'elsewhere/kreplay.mjs'), addon: failing }))).toBe(join(root, 'elsewhere'));
    const built = folderWith({ 'bundle/kreplay.mjs': 'cli', 'bundle/kreplay.node': 'addon' });
    expect(slurmBundleDirectory(searchIn(built, { packaged: join(built, 'bundle'), addon: failing }))).toBe(join(built, 'bundle'));
  });

  it('leaves a package without bundle/kreplay.mjs to the submission, which says how to build one', () => {
    const root = folderWith({});
    expect(slurmBundleDirectory(searchIn(root))).toBe(join(root, 'node_modules/@kreplay/cli/bundle'));
  });
});
