import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The driver API declarations of cuda-api.hpp (virtual memory, host registration, globals,
// cuLaunchKernelEx) against CUDA's cuda.h, when it is installed.
const include = process.env['CUDA_HOME'] ? `${process.env['CUDA_HOME']}/include` : '/usr/local/cuda/include';
const header = existsSync(`${include}/cuda.h`);
const source = fileURLToPath(new URL('./test/cuda-api-check.cpp', import.meta.url));
const sources = fileURLToPath(new URL('../..', import.meta.url));

describe.skipIf(!header)(`CUDA driver API declarations${header ? '' : ` (no cuda.h in ${include})`}`, () => {
  it('match cuda.h: struct layouts, constants, entry point signatures and the launch parameter keys', () => {
    const compiler = process.env['CXX'] ?? 'g++';
    const program = join(mkdtempSync(join(tmpdir(), 'kreplay-cuda-api-')), 'cuda-api-check');
    expect(() => execFileSync(compiler, ['-std=c++17', `-I${include}`, `-I${sources}`, source, '-o', program], { stdio: 'pipe' })).not.toThrow();
    expect(() => execFileSync(program, { stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
