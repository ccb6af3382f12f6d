import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from '../capture/nvcc.js';
import { architectureProblem } from './capture-architecture.js';

// Which captured modules may run on a device of another architecture, on images nvcc builds here.
const found = findNvcc();

describe.skipIf('missing' in found)(`architectureProblem${'missing' in found ? ` (${found.missing})` : ''}`, () => {
  let root = '';
  let cubin: Uint8Array;
  let withPtx: Uint8Array;
  beforeAll(() => {
    const path = (found as { path: string }).path;
    root = mkdtempSync(join(tmpdir(), 'kreplay-capture-architecture-'));
    const source = join(root, 'scale.cu');
    writeFileSync(source, 'extern "C" __global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }\n');
    nvcc(path, ['-cubin', '-arch=sm_80', '-o', join(root, 'scale.cubin'), source]);
    nvcc(path, ['-fatbin', '-gencode', 'arch=compute_80,code=sm_80', '-gencode', 'arch=compute_80,code=compute_80', '-o', join(root, 'scale.fatbin'), source]);
    cubin = readFileSync(join(root, 'scale.cubin'));
    withPtx = readFileSync(join(root, 'scale.fatbin'));
  }, 120_000);
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('lets the same architecture, a cubin for the device, or PTX through', () => {
    expect(architectureProblem('sm_90', 'sm_90', new Uint8Array([0]), 'm')).toBeNull();
    expect(architectureProblem('sm_90', 'sm_80', cubin, 'm')).toBeNull();
    expect(architectureProblem('sm_80', 'sm_90', withPtx, 'm')).toBeNull();
  });

  it('refuses a cubin of another architecture without PTX, with the reason', () => {
    expect(architectureProblem('sm_80', 'sm_90', cubin, 'abc-1')).toBe(
      'the capture was taken on sm_80 and this device is sm_90; module abc-1 holds cubins for sm_80 only and no PTX the driver could compile for it',
    );
    expect(architectureProblem('sm_80', 'sm_90', new Uint8Array(16), 'abc-1')).toMatch(/module abc-1 cannot be read to look for code this device runs/);
  });
});
