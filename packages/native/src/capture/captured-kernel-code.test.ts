import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from './nvcc.js';
import { readCaptureFolder } from './capture-folder.js';
import { readModuleImage } from './capture-module-image.js';
import { capturedKernelCode } from './captured-kernel-code.js';
import { writeTestCapture, type TestCaptureLaunch } from '../test/capture-folder-writer.js';

// capturedKernelCode on test captures whose modules are a cubin nvcc builds here from the capture
// fixture's PTX, that PTX alone, and bytes that are no module image. nvcc runs in each test, so each
// has the limit of the package's other nvcc tests.
const found = findNvcc();
const ptxPath = fileURLToPath(new URL('../../test/gpu/kernels/capture-fixture-axpy.ptx', import.meta.url));
const ptx = readFileSync(ptxPath);
const root = mkdtempSync(join(tmpdir(), 'kreplay-kernel-code-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const launch = (function_: string, module: Uint8Array): TestCaptureLaunch => ({
  function: function_,
  module,
  grid: [1, 1, 1],
  block: [32, 1, 1],
  parameters: new Uint8Array(24),
  memory: [{ base: 2 ** 32, kind: 'device', before: new Uint8Array(4096) }],
});

describe.skipIf('missing' in found)('capturedKernelCode', () => {
  it("reads each function's code size and registers from its module's cubin for the capture's architecture, each module once", async () => {
    const cubinPath = join(root, 'axpy.cubin');
    nvcc('path' in found ? found.path : '', ['-cubin', '-arch=sm_90', '-o', cubinPath, ptxPath]);
    const cubin = readFileSync(cubinPath);
    const expected = readModuleImage(cubin).entries[0]!.cubin!.kernels.find((kernel) => kernel.name === 'kreplay_capture_fixture_axpy')!;
    const directory = writeTestCapture(join(root, 'sm90'), {
      launches: [
        launch('kreplay_capture_fixture_axpy', cubin),
        launch('kreplay_capture_fixture_axpy', cubin),
        launch('from_ptx_only', ptx),
        launch('not_a_module', new TextEncoder().encode('no module image')),
        launch('not_in_its_module', cubin),
      ],
    });
    const codes = await capturedKernelCode(await readCaptureFolder(directory));
    expect([...codes.keys()]).toEqual(['kreplay_capture_fixture_axpy', 'from_ptx_only', 'not_a_module', 'not_in_its_module']);
    expect(codes.get('kreplay_capture_fixture_axpy')).toEqual({ codeBytes: expected.codeBytes, registers: expected.registers });
    expect(expected.codeBytes).toBeGreaterThan(0);
    expect(codes.get('from_ptx_only')).toBeNull();
    expect(codes.get('not_a_module')).toBeNull();
    expect(codes.get('not_in_its_module')).toBeNull();
  }, 120_000);

  it("takes the cubin of the capture's architecture: an sm_80 cubin describes an sm_80 capture's kernel, not an sm_90 one's", async () => {
    const cubinPath = join(root, 'parameters80.cubin');
    const source = fileURLToPath(new URL('./__fixtures__/parameters.cu', import.meta.url));
    nvcc('path' in found ? found.path : '', ['-cubin', '-arch=sm_80', '--extended-lambda', '-o', cubinPath, source]);
    const module = readFileSync(cubinPath);
    const on = async (architecture: string) =>
      (await capturedKernelCode(await readCaptureFolder(writeTestCapture(join(root, architecture), { device: { name: 'Test device', architecture }, launches: [launch('pointers', module)] })))).get('pointers');
    expect((await on('sm_80'))?.codeBytes).toBeGreaterThan(0);
    expect(await on('sm_90')).toBeNull();
  }, 120_000);
});
