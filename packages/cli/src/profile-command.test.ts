import { describe, expect, it } from 'vitest';
import { describeProfile } from './commands/profile-command.js';
import { parseDeclaredArgument, parseDimensions } from './profile-workload.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

describe('kreplay profile', () => {
  it('fails in one line where counters cannot be collected', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum', '--driver', 'host'], io)).toBe(1);
    expect(io.err()).toMatch(/^kreplay: \[replay\] \[cupti-passes\] CUPTI counters need the cuda driver, not host\..*\n$/);
    expect(io.err().split('\n')).toHaveLength(2);
  });

  it('needs --metrics, and refuses malformed arguments and shapes', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--driver', 'host'], io)).toBe(2);
    expect(await runCli(['profile', '--metrics', 'x', '--arg', 'data=pointer:sideways:1MiB'], recordingIo())).toBe(2);
    const badRange = recordingIo();
    expect(await runCli(['profile', '--metrics', 'x', '--range', 'everything'], badRange)).toBe(2);
    expect(badRange.err()).toMatch(/--range.*everything.*kernel, dispatch/);
    expect(() => parseDeclaredArgument('count=u32:read:4')).toThrow(/for pointers only/);
    expect(parseDeclaredArgument('data=pointer:readwrite:1MiB')).toEqual([{ name: 'data', type: 'pointer', access: 'readwrite', value: 2 ** 20 }]);
    expect(parseDeclaredArgument('factor=f32::2.5', [{ name: 'n', type: 'u32', value: 1 }])).toEqual([
      { name: 'n', type: 'u32', value: 1 },
      { name: 'factor', type: 'f32', value: 2.5 },
    ]);
    expect(parseDimensions('1024')).toEqual([1024, 1, 1]);
    expect(() => parseDimensions('0,1')).toThrow();
  });

  it('prints one block per dispatch with units', () => {
    const text = describeProfile({
      driver: 'cuda',
      device: 'NVIDIA H200',
      chip: 'GH100',
      workload: 'scatter',
      strategy: 'dirty-pages',
      range: 'kernel',
      passes: 9,
      metrics: ['gpu__time_duration.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'],
      units: { 'gpu__time_duration.sum': 'nanosecond', 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 'percent' },
      setupMs: 12,
      dispatches: [{ dispatch: 0, replayed: true, passes: 9, wallMs: 30.5, bytesCopied: 1024, metrics: { 'gpu__time_duration.sum': 198400, 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 17.28 } }],
    });
    expect(text).toContain('NVIDIA H200 (GH100), scatter; 9 passes per dispatch, strategy dirty-pages, kernel range');
    expect(text).toContain('gpu__time_duration.sum                            198.400 us');
    expect(text).toContain('17.28 %');
  });
});
