import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// drivers/cuda/profiler-setting.hpp (the readers of the profiler's experiment settings), built with
// its test program (test/core, outside the published sources); it needs no CUDA.
const sources = fileURLToPath(new URL('../..', import.meta.url));
const testProgram = fileURLToPath(new URL('../../../test/core/profiler-setting-test.cpp', import.meta.url));

describe('profiler settings (C++)', () => {
  it('reads a named choice and a whole number, and refuses other values with the names allowed', () => {
    const compiler = process.env['CXX'] ?? 'g++';
    const program = join(mkdtempSync(join(tmpdir(), 'kreplay-profiler-setting-')), 'profiler-setting-test');
    execFileSync(compiler, ['-std=c++17', `-I${sources}`, testProgram, '-o', program], { stdio: 'pipe' });
    const run = (() => {
      try {
        return { output: execFileSync(program, { encoding: 'utf8' }), status: 0 };
      } catch (error) {
        return { output: String((error as { stdout?: string }).stdout ?? ''), status: 1 };
      }
    })();
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
