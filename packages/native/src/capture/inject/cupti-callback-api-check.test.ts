import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The capture library's CUPTI callback declarations (cupti-callback-api.hpp) against CUDA's headers,
// when they are installed: callback ids, struct layouts, each driver call's `*_params`.
const include = process.env['CUDA_HOME'] ? `${process.env['CUDA_HOME']}/include` : '/usr/local/cuda/include';
const headers = ['cupti_callbacks.h', 'cupti_driver_cbid.h', 'generated_cuda_meta.h'].every((file) => existsSync(`${include}/${file}`));
const source = fileURLToPath(new URL('./test/cupti-callback-api-check.cpp', import.meta.url));
const sources = fileURLToPath(new URL('../..', import.meta.url));

describe.skipIf(!headers)(`CUPTI callback declarations${headers ? '' : ` (no CUPTI headers in ${include})`}`, () => {
  it('match cupti_callbacks.h, cupti_driver_cbid.h and generated_cuda_meta.h', () => {
    const compiler = process.env['CXX'] ?? 'g++';
    expect(() => execFileSync(compiler, ['-std=c++17', '-fsyntax-only', `-I${include}`, `-I${sources}`, source], { stdio: 'pipe' })).not.toThrow();
  });
});
