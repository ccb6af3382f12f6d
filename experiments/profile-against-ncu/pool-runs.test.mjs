// pool-runs.mjs on made-up run folders: ncu's runs renumbered in the order given (a folder's runs in
// the order of their numbers, wherever they start), the last folder's files and variants under their
// names and the others' variants labelled; runs of another machine, program or ncu option refused
// with the fix, runs of another launch count pooled; --leave-out; and summarize.mjs's warning for a
// folder whose runs measured different things.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
/** summarize.mjs, the capture acceptance's summary in @kreplay/bench, which reads pooled folders too. */
const summarize = join(here, '../../packages/bench/scripts/capture-acceptance/summarize.mjs');
const roots = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

const machineText = 'NVIDIA H200, 580.159.04, 143771 MiB\nVersion 2025.3.1.0\n';
const programRun = 'set sol --profile-from-start off --clock-control none --cache-control all --launch-count 3 -- train_step.py --layers 1';

/** A run folder: files by name (a name with a slash is written into its folder). */
function runFolder(root, name, files) {
  const folder = join(root, name);
  for (const [file, text] of Object.entries({ 'machine.txt': machineText, ...files })) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
  return folder;
}

function pool(...args) {
  return spawnSync(process.execPath, [join(here, 'pool-runs.mjs'), ...args], { encoding: 'utf8' });
}

function newRoot() {
  const root = mkdtempSync(join(tmpdir(), 'pool-runs-'));
  roots.push(root);
  return root;
}

describe('pool-runs.mjs', () => {
  it('numbers the runs in the order given and takes the last folder’s files and variants under their names', () => {
    const root = newRoot();
    const first = runFolder(root, 'run-12', {
      'ncu-1.csv': 'a1', 'ncu-2.csv': 'a2', 'ncu-replay-1.csv': 'ar1', 'timings.txt': 'capture 91\n', 'warm/profile.json': '{"a":1}',
    });
    const second = runFolder(root, 'run-13', {
      'ncu-1.csv': 'b1', 'ncu-runs.txt': `ncu-1.csv: ${programRun}\n`, 'timings.txt': 'capture 81\n', 'warm/profile.json': '{"b":1}', 'noicache/profile.json': '{}', 'notes/readme.txt': 'no variant',
    });
    const pooled = join(root, 'pooled');
    const result = pool(pooled, `${first}=r12`, second);
    expect(result.status, result.stderr).toBe(0);
    const read = (name) => readFileSync(join(pooled, name), 'utf8');
    expect(['ncu-1.csv', 'ncu-2.csv', 'ncu-3.csv'].map(read)).toEqual(['a1', 'a2', 'b1']);
    expect(read('ncu-replay-1.csv')).toBe('ar1');
    expect(read('timings.txt')).toBe('capture 81\n');
    expect(read('warm/profile.json')).toBe('{"b":1}');
    expect(read('r12-warm/profile.json')).toBe('{"a":1}');
    expect(existsSync(join(pooled, 'noicache', 'profile.json'))).toBe(true);
    expect(existsSync(join(pooled, 'notes'))).toBe(false);
    expect(read('pooled-from.txt')).toContain('ncu-3.csv: run-13/ncu-1.csv: set sol');
    expect(read('pooled-from.txt')).toContain('ncu-1.csv: r12/ncu-1.csv (what it measured is not recorded)');
  });

  it('takes every numbered run of a folder, also one whose runs start above 1 or skip a number', () => {
    const root = newRoot();
    const first = runFolder(root, 'call-1', { 'ncu-1.csv': 'a1', 'ncu-replay-1.csv': 'ar1' });
    const second = runFolder(root, 'call-2', { 'ncu-3.csv': 'b3', 'ncu-5.csv': 'b5', 'ncu-10.csv': 'b10', 'ncu-4.log': 'log' });
    const pooled = join(root, 'pooled');
    const result = pool(pooled, first, second);
    expect(result.status, result.stderr).toBe(0);
    const read = (name) => readFileSync(join(pooled, name), 'utf8');
    expect(['ncu-1.csv', 'ncu-2.csv', 'ncu-3.csv', 'ncu-4.csv'].map(read)).toEqual(['a1', 'b3', 'b5', 'b10']);
    expect(existsSync(join(pooled, 'ncu-5.csv'))).toBe(false);
    expect(read('ncu-replay-1.csv')).toBe('ar1');
    expect(read('pooled-from.txt')).toContain('ncu-4.csv: call-2/ncu-10.csv');
  });

  it('refuses runs of another program or ncu option, and pools them once one is left out', () => {
    const root = newRoot();
    const first = runFolder(root, 'a', { 'ncu-1.csv': 'a1', 'ncu-runs.txt': `ncu-1.csv: ${programRun}\n` });
    const second = runFolder(root, 'b', {
      'ncu-1.csv': 'b1', 'ncu-2.csv': 'b2',
      'ncu-runs.txt': `ncu-1.csv: ${programRun.replace('--layers 1', '--layers 2')}\nncu-2.csv: ${programRun}\n`,
    });
    const refused = pool(join(root, 'pooled'), first, second);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('b/ncu-1.csv measured another thing than a/ncu-1.csv');
    expect(refused.stderr).toContain('--leave-out b/ncu-1.csv');
    const pooled = join(root, 'pooled-2');
    const result = pool(pooled, first, second, '--leave-out', 'b/ncu-1.csv');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(pooled, 'ncu-2.csv'), 'utf8')).toBe('b2');
    expect(existsSync(join(pooled, 'ncu-3.csv'))).toBe(false);
  });

  it('pools runs that differ only in their launch count: the same first launches', () => {
    const root = newRoot();
    const first = runFolder(root, 'a', { 'ncu-1.csv': 'a1', 'ncu-runs.txt': `ncu-1.csv: ${programRun}\n` });
    const longer = programRun.replace('--launch-count 3', '--launch-count 200');
    const second = runFolder(root, 'b', { 'ncu-1.csv': 'b1', 'ncu-runs.txt': `ncu-1.csv: ${longer}\n` });
    const pooled = join(root, 'pooled');
    const result = pool(pooled, first, second);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(pooled, 'pooled-from.txt'), 'utf8')).toContain('ncu-2.csv: b/ncu-1.csv: set sol --profile-from-start off --clock-control none --cache-control all --launch-count 200');
    // Another option besides the count is still refused.
    const third = runFolder(root, 'c', { 'ncu-1.csv': 'c1', 'ncu-runs.txt': `ncu-1.csv: ${longer.replace('--cache-control all', '--cache-control none')}\n` });
    expect(pool(join(root, 'pooled-2'), first, third).stderr).toContain('c/ncu-1.csv measured another thing than a/ncu-1.csv');
  });

  it('leaves out all runs of a kind in one folder', () => {
    const root = newRoot();
    const first = runFolder(root, 'a', { 'ncu-replay-1.csv': 'a1' });
    const second = runFolder(root, 'b', { 'ncu-replay-1.csv': 'b1', 'ncu-replay-2.csv': 'b2' });
    const pooled = join(root, 'pooled');
    expect(pool(pooled, first, second, '--leave-out', 'b/ncu-replay').status).toBe(0);
    expect(readFileSync(join(pooled, 'ncu-replay-1.csv'), 'utf8')).toBe('a1');
    expect(existsSync(join(pooled, 'ncu-replay-2.csv'))).toBe(false);
  });

  it('refuses runs of another machine, a folder that is no run, two folders of one label and a used pooled folder', () => {
    const root = newRoot();
    const first = runFolder(root, 'a', {});
    const other = runFolder(root, 'x/a', { 'machine.txt': 'NVIDIA H100, 570.0, 81559 MiB\n' });
    expect(pool(join(root, 'p1'), first, `${other}=b`).stderr).toMatch(/another machine[\s\S]*H100/);
    const same = runFolder(root, 'y/a', {});
    expect(pool(join(root, 'p3'), first, same).stderr).toContain('two run folders have the label a');
    expect(pool(join(root, 'p4'), first, join(root, 'missing')).stderr).toContain('holds no machine.txt');
    expect(pool(join(root, 'p4'), first).status).toBe(0);
    expect(pool(join(root, 'p4'), first).stderr).toContain('is not empty');
    expect(pool(join(root, 'p5')).status).toBe(2);
  });
});

describe('summarize.mjs with ncu-runs.txt', () => {
  it('warns when the runs it judges against measured different things', () => {
    const root = newRoot();
    const folder = runFolder(root, 'run', {
      'timings.txt': '',
      'ncu-1.csv': '', 'ncu-2.csv': '',
      'ncu-runs.txt': `ncu-1.csv: ${programRun}\nncu-2.csv: ${programRun.replace('--layers 1', '--layers 2')}\n`,
    });
    const result = spawnSync(process.execPath, [summarize, folder], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('WARNING: ncu-runs.txt says these ncu runs measured different things');
    expect(result.stdout).toContain('ncu-2.csv: set sol');
    const agreeing = runFolder(root, 'agreeing', { 'timings.txt': '', 'ncu-1.csv': '', 'ncu-runs.txt': `ncu-1.csv: ${programRun}\n` });
    expect(spawnSync(process.execPath, [summarize, agreeing], { encoding: 'utf8' }).stdout).not.toContain('WARNING');
  });

  it('does not warn for runs of another launch count, and reads a folder without timings.txt', () => {
    const root = newRoot();
    const longer = programRun.replace('--launch-count 3', '--launch-count 200');
    const folder = runFolder(root, 'run', {
      'ncu-1.csv': '', 'ncu-2.csv': '',
      'ncu-runs.txt': `ncu-1.csv: ${programRun}\nncu-2.csv: ${longer}\n`,
    });
    const result = spawnSync(process.execPath, [summarize, folder], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('WARNING');
    expect(result.stdout).toContain('program alone: n/a s wall');
  });
});
