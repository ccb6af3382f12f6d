import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from './nvcc.js';

// The capture subsystem's C++ tests (the module-image reader on synthetic images, SHA-256, the
// writer's files, the capture session over a fake device) are one program that the addon build makes
// (build/tests; capture.cmake). Each of its cases becomes a test here. They are skipped only when the
// program was not built. When nvcc is found, the session's cases also get cubins nvcc builds from
// test/capture-fixtures/axpy.cu and __fixtures__/parameters.cu (else those cases skip).
const program = fileURLToPath(new URL('../../build/tests/kreplay-capture-test', import.meta.url));
const built = existsSync(program);
const found = findNvcc();

function buildCubins(): Record<string, string> {
  if ('missing' in found) return {};
  const folder = mkdtempSync(join(tmpdir(), 'kreplay-capture-cubins-'));
  const axpy = join(folder, 'axpy.cubin');
  const parameters = join(folder, 'parameters.cubin');
  nvcc(found.path, ['-cubin', '-arch=sm_90', '-o', axpy, fileURLToPath(new URL('../../test/capture-fixtures/axpy.cu', import.meta.url))]);
  nvcc(found.path, ['-cubin', '-arch=sm_90', '--extended-lambda', '-o', parameters, fileURLToPath(new URL('./__fixtures__/parameters.cu', import.meta.url))]);
  cubinFolder = folder;
  return { KREPLAY_CAPTURE_TEST_AXPY_CUBIN: axpy, KREPLAY_CAPTURE_TEST_PARAMETERS_CUBIN: parameters };
}

let cubinFolder = '';
afterAll(() => {
  if (cubinFolder) rmSync(cubinFolder, { recursive: true, force: true });
});

describe.skipIf(!built)('capture: C++ tests', () => {
  const environment = built ? { ...process.env, ...buildCubins() } : process.env;
  const result = built ? spawnSync(program, [], { encoding: 'utf8', timeout: 120_000, env: environment }) : undefined;
  const lines = (result?.stdout ?? '').split('\n').map((line) => line.split('\t')).filter(([status, name]) => name && ['ok', 'skip', 'not ok'].includes(status!));

  it('the test program ran every case', () => {
    expect(lines.length, `${result?.stdout}${result?.stderr}`).toBeGreaterThan(15);
    expect(result?.status).toBe(lines.some(([status]) => status === 'not ok') ? 1 : 0);
  });

  it.skipIf('missing' in found)('the nvcc-built cubins reached the session case (it ran, not skipped)', () => {
    const [status] = lines.find(([, name]) => name!.includes('nvcc-built kernels')) ?? [];
    expect(status).toBe('ok');
  });

  for (const [status, name, detail] of lines) {
    it(name!, (context) => {
      if (status === 'skip') context.skip(detail);
      expect(status, detail).toBe('ok');
    });
  }
});
