import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCppTestProgram } from './cpp-test-program.js';

// core/ordered-operations.hpp (the skeleton of the host and hsa queues), built with its test program
// (test/core, outside the published sources).
const sources = fileURLToPath(new URL('.', import.meta.url));
const testProgram = fileURLToPath(new URL('../test/core/ordered-operations-test.cpp', import.meta.url));

describe('ordered operations (C++)', () => {
  it('hands out operations in order, numbers work, fences on completion, and stops', () => {
    const run = runCppTestProgram('ordered-operations-test', sources, [testProgram, '-pthread']);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
