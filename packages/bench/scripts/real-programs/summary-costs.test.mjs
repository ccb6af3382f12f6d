import { describe, expect, it } from 'vitest';
import { costRows, diskRate, footprintRows, readTimings } from './summary-costs.mjs';

const timings = readTimings(
  [
    'train.program 20.0 exit=0',
    'train.capture 26.0 exit=0',
    'train.replay 4.0 exit=0',
    'train.profile 5.0 exit=0',
    'train.profile-range-1 30.0 exit=0',
    'train.ncu-1 70.0 exit=0',
    'train.ncu-2 80.0 exit=0',
    'footprint-4-5.program 1.0 exit=0',
    'footprint-4-5.capture 4.0 exit=0',
    'footprint-4-25.program 1.5 exit=0',
    'footprint-4-25.capture 5.5 exit=0',
  ].join('\n'),
);

const rows = (count) => Array.from({ length: count }, (_, index) => ({ dispatch: index, metrics: { 'gpu__time_duration.sum': 1 } }));

describe('real-programs summary', () => {
  it('reads timings with and without an exit status', () => {
    expect(readTimings('a 1.5 exit=3\nb 2\nnoise line')).toEqual({ a: { seconds: 1.5, exit: 3 }, b: { seconds: 2, exit: 0 } });
  });

  it('leaves the program alone out of capture and ncu, and compares each profile with ncu alone and end to end', () => {
    const lines = costRows('train', timings, {
      program: { capturedStepSeconds: 0.05 },
      capture: { capture: { launches: 100, sequences: 1, cost: { wallSeconds: 5, programWaitSeconds: 4, deviceBytesHashed: 2 ** 30, bytesCopiedToHost: 2 ** 20, bytesStored: 2 ** 20, blobsStored: 16 } } },
      replay: { reproduced: 100, launches: rows(100), mismatched: [], failed: [] },
      profiles: { profile: { dispatches: rows(100), ranges: [{}] }, 'profile-range-1': { dispatches: rows(100), ranges: [] } },
    });
    const text = lines.join('\n');
    // capture: 26 - 20 = 6 s added, 0.30x of the program, 60 ms a launch
    expect(text).toContain('+6.00 s over the program alone = 0.30x its wall time; 100 launches, 60.0 ms a launch');
    // ncu: (50 + 60) / 2 = 55 s beyond the program
    expect(text).toContain('2 runs, 50.00, 60.00 s beyond the program alone (mean 55.00 s, 550.0 ms a launch)');
    // profile: 55 / 5 = 11x; end to end 55 / (6 + 5) = 5x
    expect(text).toContain('profile: 5.00 s wall (exit 0), 100/100 launches measured in 1 ranges, 50.0 ms a launch; ncu/kreplay 11.0x; end to end with the capture 5.0x');
    expect(text).toContain('profile-range-1: 30.00 s wall');
    expect(text).toContain('replay --verify full: 100/100 reproduced');
  });

  it('gives the capture cost a launch after the first from two launch counts, beside the disk rate', () => {
    const lines = footprintRows(
      timings,
      {
        '4-5': { capture: { capture: { launches: 5 } }, program: { launches: 5, pagesWrittenPerLaunch: 655, pages: 65536 } },
        '4-25': { capture: { capture: { launches: 25 } }, program: { launches: 25, pagesWrittenPerLaunch: 655, pages: 65536 } },
      },
      '2147483648 bytes (2.1 GB, 2.0 GiB) copied, 1.5 s, 1.4 GB/s\n',
    );
    // (4.0 - 1.5) - (4.0 - 1.0) = 1.0 s over 20 launches = 50 ms
    expect(lines).toContain('4 GiB: 50.0 ms a launch after the first');
    expect(lines[0]).toBe('the disk writes 1.4 GB/s (dd, 2 GiB, fdatasync)');
    expect(diskRate('nothing')).toBe('n/a');
  });
});
