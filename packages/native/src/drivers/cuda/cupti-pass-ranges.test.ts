import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCppTestProgram } from '../../addon/cpp-test-program.js';

// drivers/cuda/cupti-pass-ranges.hpp (the CUPTI ranges of a window's pass), built with its test
// program (test/core, outside the published sources); it needs no CUDA.
const sources = fileURLToPath(new URL('../..', import.meta.url));
const testProgram = fileURLToPath(new URL('../../../test/core/cupti-pass-ranges-test.cpp', import.meta.url));

describe('CUPTI pass ranges (C++)', () => {
  it("counts a pass's ranges with and without flush kernels between dispatches, and names each dispatch's user range", () => {
    const run = runCppTestProgram('cupti-pass-ranges-test', sources, [testProgram]);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
