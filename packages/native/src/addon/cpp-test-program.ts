import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a C++ test program printed, and 0 when it exited 0, else 1. */
export interface CppTestRun {
  readonly output: string;
  readonly status: number;
}

/**
 * Builds a C++ test program (one of test/core, outside the published sources) with the compiler in
 * CXX (default g++), C++17 and `includeDirectory` on the include path, from `sources` (the test
 * program first), and runs it. For the tests of native code that needs no device; such a program
 * prints what failed and exits 1.
 */
export function runCppTestProgram(name: string, includeDirectory: string, sources: readonly string[]): CppTestRun {
  const compiler = process.env['CXX'] ?? 'g++';
  const program = join(mkdtempSync(join(tmpdir(), `kreplay-${name}-`)), name);
  execFileSync(compiler, ['-std=c++17', `-I${includeDirectory}`, ...sources, '-o', program], { stdio: 'pipe' });
  try {
    return { output: execFileSync(program, { encoding: 'utf8' }), status: 0 };
  } catch (error) {
    return { output: String((error as { stdout?: string }).stdout ?? ''), status: 1 };
  }
}
