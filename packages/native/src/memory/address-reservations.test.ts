import { platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCppTestProgram } from '../addon/cpp-test-program.js';

// core/address-reservations.cpp (the placeholders of openRuntime's reserveAddresses), built with
// its test program (test/core, outside the published sources) and run against this process's address space.
const sources = fileURLToPath(new URL('..', import.meta.url));
const testProgram = fileURLToPath(new URL('../../test/core/address-reservations-test.cpp', import.meta.url));

describe.skipIf(platform() !== 'linux')('address reservations (C++)', () => {
  it('reserve, refuse with the holder named, release and restore', () => {
    const run = runCppTestProgram('address-reservations-test', sources, [testProgram, join(sources, 'core', 'address-reservations.cpp')]);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
