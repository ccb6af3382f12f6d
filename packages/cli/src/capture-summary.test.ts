import { describe, expect, it } from 'vitest';
import { describeCaptureSummary, type CaptureSummary } from './capture-summary.js';

const summary: CaptureSummary = {
  directory: '/captures/step',
  pid: null,
  command: ['python3', 'train.py'],
  device: { name: 'NVIDIA H200', architecture: 'sm_90' },
  complete: true,
  launches: 3,
  kernels: [
    { function: 'gemm', launches: 2, codeBytes: 1536, registers: 40 },
    { function: 'from_ptx', launches: 1, codeBytes: null, registers: null },
  ],
  bytesStored: 4096,
  blobs: 2,
  notCaptured: {},
  damaged: [],
  incomplete: [],
  selectionError: null,
};

describe('describeCaptureSummary', () => {
  it("gives a kernel's code size and registers where its cubin said, and nothing where it did not", () => {
    const text = describeCaptureSummary(summary);
    expect(text).toContain('    2  gemm (1.5 KiB of code, 40 registers)\n');
    expect(text).toContain('    1  from_ptx\n');
    expect(describeCaptureSummary({ ...summary, kernels: [{ function: 'k', launches: 1, codeBytes: 256, registers: null }] })).toContain('    1  k (256 B of code)\n');
  });
});
