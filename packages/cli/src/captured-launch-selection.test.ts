import type { CaptureFolder, CaptureLaunch, DamagedCaptureLaunch } from '@kreplay/native';
import { describe, expect, it } from 'vitest';
import { selectCapturedLaunches } from './captured-launch-selection.js';

const launch = (sequence: number, name: string) => ({ sequence, function: name }) as CaptureLaunch;
const damaged = (sequence: number): DamagedCaptureLaunch => ({ file: `launches/${String(sequence).padStart(8, '0')}.json`, sequence, field: null, reason: `record ${sequence} is damaged` });
// Launches 1, 3 and 5 are damaged: their functions are unknown.
const folder = {
  directory: '/captures/step',
  launches: [launch(0, 'gemm'), launch(2, 'relu'), launch(4, 'gemm'), launch(6, 'gemm')],
  damaged: [damaged(1), damaged(3), damaged(5)],
} as unknown as CaptureFolder;
const sequences = (selected: CaptureFolder) => ({ launches: selected.launches.map((one) => one.sequence), damaged: selected.damaged.map((one) => one.sequence) });

describe('selectCapturedLaunches', () => {
  it('keeps every damaged record when the selection takes every launch', () => {
    expect(sequences(selectCapturedLaunches(folder, {}, 'replay'))).toEqual({ launches: [0, 2, 4, 6], damaged: [1, 3, 5] });
  });

  it('keeps the damaged records among the selected launches, and leaves out those before or after them', () => {
    expect(sequences(selectCapturedLaunches(folder, { launchCount: 2 }, 'replay'))).toEqual({ launches: [0, 2], damaged: [1] });
    expect(sequences(selectCapturedLaunches(folder, { launchSkip: 3 }, 'replay'))).toEqual({ launches: [6], damaged: [] });
    expect(sequences(selectCapturedLaunches(folder, { kernelName: 'gemm', launchSkip: 1 }, 'replay'))).toEqual({ launches: [4, 6], damaged: [5] });
  });

  it('matches --kernel-name in the name --kernel-name-base says, whole or as regex:, for profile capture: as for replay', () => {
    const mangled = { ...folder, launches: [launch(0, '_Z5applyIiEviT_'), launch(1, '_Z7applyToi'), launch(2, '_Z5applyIiEviT_')], damaged: [] } as unknown as CaptureFolder;
    const select = (kernelName: string, kernelNameBase: 'function' | 'demangled' | 'mangled', extra = {}) =>
      selectCapturedLaunches(mangled, { kernelName, kernelNameBase, ...extra }, 'profile').launches.map((one) => one.sequence);
    expect(select('apply', 'function')).toEqual([0, 2]);
    expect(select('void apply<int>(int, int)', 'demangled')).toEqual([0, 2]);
    expect(select('_Z7applyToi', 'mangled')).toEqual([1]);
    expect(select('regex:^_Z\\d+apply', 'mangled', { launchSkip: 1, launchCount: 1 })).toEqual([1]);
    expect(() => select('apply', 'mangled')).toThrow(/^\[cli\] \[profile\] no captured launch of \/captures\/step matches --kernel-name apply \(--kernel-name-base mangled\); it holds _Z5applyIiEviT_, _Z7applyToi/);
  });

  it('names the functions a capture holds with their control characters escaped when none matches', () => {
    const odd = { ...folder, launches: [launch(0, 'evil\u001b[2J')], damaged: [] } as unknown as CaptureFolder;
    expect(() => selectCapturedLaunches(odd, { kernelName: 'gemm' }, 'replay')).toThrow(/it holds evil\\x1b\[2J\. Change the selection/);
  });
});
