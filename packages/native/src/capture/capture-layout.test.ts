import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The capture subsystem's C++ tests (the module-image reader on synthetic images, SHA-256, the
// writer's files) are one program that the addon build makes (build/tests; capture.cmake). Each of
// its cases becomes a test here. They are skipped only when the program was not built.
const program = fileURLToPath(new URL('../../build/tests/kreplay-capture-test', import.meta.url));
const built = existsSync(program);

describe.skipIf(!built)('capture: C++ tests', () => {
  const result = built ? spawnSync(program, [], { encoding: 'utf8', timeout: 120_000 }) : undefined;
  const lines = (result?.stdout ?? '').split('\n').map((line) => line.split('\t')).filter(([status, name]) => name && ['ok', 'skip', 'not ok'].includes(status!));

  it('the test program ran every case', () => {
    expect(lines.length, `${result?.stdout}${result?.stderr}`).toBeGreaterThan(15);
    expect(result?.status).toBe(lines.some(([status]) => status === 'not ok') ? 1 : 0);
  });

  for (const [status, name, detail] of lines) {
    it(name!, (context) => {
      if (status === 'skip') context.skip(detail);
      expect(status, detail).toBe('ok');
    });
  }
});
