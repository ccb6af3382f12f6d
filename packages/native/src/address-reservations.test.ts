import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// core/address-reservations.cpp (the placeholders of openRuntime's reserveAddresses), built with
// its test program (test/core, outside the published sources) and run against this process's address space.
const sources = fileURLToPath(new URL('.', import.meta.url));
const testProgram = fileURLToPath(new URL('../test/core/address-reservations-test.cpp', import.meta.url));

describe.skipIf(platform() !== 'linux')('address reservations (C++)', () => {
  it('reserve, refuse with the holder named, release and restore', () => {
    const compiler = process.env['CXX'] ?? 'g++';
    const program = join(mkdtempSync(join(tmpdir(), 'kreplay-reservations-')), 'address-reservations-test');
    execFileSync(compiler, ['-std=c++17', `-I${sources}`, testProgram, join(sources, 'core', 'address-reservations.cpp'), '-o', program], { stdio: 'pipe' });
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
