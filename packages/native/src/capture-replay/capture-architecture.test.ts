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

describe('architectureProblem on PTX text (no toolkit needed)', () => {
  const ptx = (target: string) => new TextEncoder().encode(`.version 8.7\n.target ${target}\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n`);

  it('lets PTX of the device\'s architecture or an older one through: the driver compiles it', () => {
    expect(architectureProblem('sm_80', 'sm_90', ptx('sm_80'), 'm')).toBeNull();
    expect(architectureProblem('sm_100', 'sm_100', ptx('sm_100'), 'm')).toBeNull();
    expect(architectureProblem('sm_90', 'sm_120', ptx('sm_90'), 'm')).toBeNull();
  });

  it('refuses PTX of a newer target, or of an architecture-specific one, naming the target and the device', () => {
    const newer = architectureProblem('sm_100', 'sm_90', ptx('sm_100'), 'abc-1');
    expect(newer).toBe(
      'the capture was taken on sm_100 and this device is sm_90; module abc-1 is PTX for .target sm_100 (PTX ISA 8.7), which the driver compiles for sm_100 and newer architectures only, not for sm_90',
    );
    expect(newer).not.toMatch(/malformed|cannot be read/);
    expect(architectureProblem('sm_90', 'sm_100', ptx('sm_90a'), 'abc-1')).toBe(
      'the capture was taken on sm_90 and this device is sm_100; module abc-1 is PTX for .target sm_90a (PTX ISA 8.7), which the driver compiles for sm_90 alone, not for sm_100',
    );
  });
});
