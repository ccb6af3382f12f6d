import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCppTestProgram } from '../../cpp-test-program.js';

// drivers/cuda/profiler-l2-flush.hpp (which L2 flush the profiler runs before each pass), built with
// its test program (test/core, outside the published sources); it needs no CUDA.
const sources = fileURLToPath(new URL('../..', import.meta.url));
const testProgram = fileURLToPath(new URL('../../../test/core/profiler-l2-flush-test.cpp', import.meta.url));

describe('profiler L2 flush setting (C++)', () => {
  it('writes and drops the flush buffer unless told otherwise, and refuses a flush it does not know', () => {
    const run = runCppTestProgram('profiler-l2-flush-test', sources, [testProgram]);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
