/**
 * CUDA graphs through libcuda itself: the program in cuda-graphs-program/ (every .cpp there built here
 * with g++, no CUDA SDK) builds graphs node by node and by stream capture, launches them, updates
 * them, and checks every result.
 * Against test/fake-cuda it tests the fake's graphs; on a GPU the same checks hold the fake to what
 * the NVIDIA driver does. Skips without a CUDA device or without a C++ compiler.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { probeCudaForTests } from './cuda-availability.js';

const cuda = await probeCudaForTests();
const compiler = process.env['CXX'] ?? 'g++';
const hasCompiler = spawnSync(compiler, ['--version']).status === 0;
const skip = !cuda.available ? cuda.reason : hasCompiler ? '' : `no C++ compiler (${compiler})`;
const sourceFolder = fileURLToPath(new URL('./cuda-graphs-program/', import.meta.url));
const ptx = fileURLToPath(new URL('./kernels/scale-floats.ptx', import.meta.url));

describe.skipIf(skip !== '' || !existsSync(sourceFolder))(`CUDA graphs in libcuda${skip ? ` (${skip})` : ''}`, () => {
  const folder = mkdtempSync(join(tmpdir(), 'kreplay-cuda-graphs-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('builds, launches and updates graphs made node by node and by stream capture', () => {
    const program = join(folder, 'cuda-graphs-program');
    const sources = readdirSync(sourceFolder)
      .filter((name) => name.endsWith('.cpp'))
      .map((name) => join(sourceFolder, name));
    execFileSync(compiler, ['-std=c++17', ...sources, '-o', program, '-ldl'], { stdio: 'pipe' });
    const result = spawnSync(program, [ptx], { encoding: 'utf8', timeout: 60_000 });
    expect(result.stdout, result.stderr).not.toContain('FAILED');
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      'ok nodes, edges, types and parameters of a graph built node by node',
      'ok launches, exec kernel-node parameters and exec update',
      'ok child graph and event record nodes',
      'ok graph memory nodes',
      'ok stream capture on one stream, launched three times',
      'ok stream capture across two streams, with an allocation and a free',
      'ok a synchronization invalidates a capture',
      'ok',
    ]);
  });
});
