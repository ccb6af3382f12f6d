import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The CUPTI declarations of this driver against CUDA's headers, when they are installed.
const include = process.env['CUDA_HOME'] ? `${process.env['CUDA_HOME']}/include` : '/usr/local/cuda/include';
const headers = existsSync(`${include}/cupti_range_profiler.h`) && existsSync(`${include}/cupti_checkpoint.h`);
const source = fileURLToPath(new URL('./test/cupti-api-check.cpp', import.meta.url));
const sources = fileURLToPath(new URL('../..', import.meta.url));

describe.skipIf(!headers)(`CUPTI declarations${headers ? '' : ` (no CUPTI headers in ${include})`}`, () => {
  it('match cupti_profiler_host.h, cupti_range_profiler.h, cupti_profiler_target.h and cupti_checkpoint.h', () => {
    const compiler = process.env['CXX'] ?? 'g++';
    expect(() => execFileSync(compiler, ['-std=c++17', '-fsyntax-only', `-I${include}`, `-I${sources}`, source], { stdio: 'pipe' })).not.toThrow();
  });
});
