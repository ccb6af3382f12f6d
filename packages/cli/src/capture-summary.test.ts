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
  formatVersion: 2,
  sequences: 2,
  sequenceBreaks: { 'uncaptured-launch': 1 },
  graphLaunches: 0,
  cost: { wallSeconds: 1.25, deviceBytesHashed: 2 ** 32, bytesCopiedToHost: 3 * 2 ** 20, bytesStored: 4096, blobsStored: 1, launches: 3, programWaitSeconds: 0.5 },
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

  it('prints the text a capture supplied with its control characters escaped', () => {
    const text = describeCaptureSummary({
      ...summary,
      device: { name: 'GPU\u001b]0;title\u0007', architecture: 'sm_90\u001b[2J' },
      kernels: [{ function: '_Z4gemm\u001b[31m\u009b', launches: 1, codeBytes: null, registers: null }],
      notCaptured: { 'graph\u001b[1m': 2 },
      sequenceBreaks: { 'host-write\u001b[1m': 1 },
      damaged: [{ file: 'launches/00000001.json', reason: 'launches/00000001.json: function \u001b[8mhidden' }],
      incomplete: ['launches/00000002.json\u001b[K.tmp'],
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('on GPU\\x1b]0;title\\x07 (sm_90\\x1b[2J)');
    expect(text).toContain('    1  _Z4gemm\\x1b[31m\\x9b\n');
    expect(text).toContain('not captured: graph\\x1b[1m 2');
    expect(text).toContain('started anew: host-write\\x1b[1m 1');
    expect(text).toContain('damaged: launches/00000001.json: function \\x1b[8mhidden');
    expect(text).toContain('left unfinished: launches/00000002.json\\x1b[K.tmp');
  });

  it('says how many graph launches had their kernel nodes captured, when any had', () => {
    expect(describeCaptureSummary(summary)).not.toContain('graph launch');
    expect(describeCaptureSummary({ ...summary, graphLaunches: null })).not.toContain('graph launch');
    expect(describeCaptureSummary({ ...summary, graphLaunches: 1 })).toContain('  kernel nodes of 1 graph launch captured node by node\n');
    expect(describeCaptureSummary({ ...summary, graphLaunches: 3 })).toContain('  kernel nodes of 3 graph launches captured node by node\n');
  });

  it('says the captured sequences with the reasons they started anew, and what capturing cost', () => {
    const text = describeCaptureSummary(summary);
    expect(text).toContain('  2 captured sequences; started anew: uncaptured-launch 1\n');
    expect(text).toContain('  capture cost: 1.3 s, the program waited 0.5 s; 4.0 GiB hashed on the device, 3.0 MiB copied to the host, 4.0 KiB stored in 1 new blob\n');
    expect(describeCaptureSummary({ ...summary, sequences: 1, sequenceBreaks: {} })).toContain('  1 captured sequence\n');
    const versionOne = describeCaptureSummary({ ...summary, formatVersion: 1, sequences: null, sequenceBreaks: {}, cost: null });
    expect(versionOne).toContain('  captured sequences: not recorded (a capture of format version 1)\n');
    expect(versionOne).not.toContain('capture cost');
  });
});
