import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCppTestProgram } from '../../cpp-test-program.js';

// drivers/cuda/profiler-setting.hpp (the readers of the profiler's experiment settings), built with
// its test program (test/core, outside the published sources); it needs no CUDA.
const sources = fileURLToPath(new URL('../..', import.meta.url));
const testProgram = fileURLToPath(new URL('../../../test/core/profiler-setting-test.cpp', import.meta.url));

describe('profiler settings (C++)', () => {
  it('reads a named choice and a whole number, and refuses other values with the names allowed', () => {
    const run = runCppTestProgram('profiler-setting-test', sources, [testProgram]);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
