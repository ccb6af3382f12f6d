import { execFileSync } from 'node:child_process';
import { mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestCapture } from '@kreplay/native/test';
import { describe, expect, it } from 'vitest';
import { captureProfileFailure, type ProfileReport } from './commands/profile-command.js';
import { describeProfile } from './profile-details-page.js';
import { parseDeclaredArgument, parseDimensions } from './profile-workload.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

describe('kreplay profile', () => {
  it('says what counters need, without advice to choose the host driver, where the cuda driver does not open (exit 1)', async () => {
    const saved = process.env['KREPLAY_CUDA_LIBRARY'];
    process.env['KREPLAY_CUDA_LIBRARY'] = '/nonexistent/libcuda.so.1';
    try {
      const io = recordingIo();
      expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum'], io)).toBe(1);
      expect(io.err()).toMatch(/^kreplay: \[cli\] \[profile\] CUPTI's counters need the cuda driver, and it is not available here: .+\. Profile on a machine with an NVIDIA GPU and its driver; without one, kreplay replay and kreplay demo run on the host driver\.\n$/);
      expect(io.err()).not.toMatch(/choose --driver host/);
    } finally {
      if (saved === undefined) delete process.env['KREPLAY_CUDA_LIBRARY'];
      else process.env['KREPLAY_CUDA_LIBRARY'] = saved;
    }
  });

  it('fails in one line where counters cannot be collected', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum', '--driver', 'host'], io)).toBe(2);
    expect(io.err()).toMatch(/^kreplay: \[cli\] \[profile\] CUPTI's counters need the cuda driver \(an NVIDIA GPU\), not --driver host.*kreplay replay and kreplay demo run on the host driver.*\n$/);
    expect(io.err().split('\n')).toHaveLength(2);
  });

  it('collects the basic set without --metrics, --section or --set, and refuses malformed arguments and shapes', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--driver', 'auto'], io)).toBe(2);
    expect(io.err()).toMatch(/CUPTI's counters need the cuda driver \(an NVIDIA GPU\), not --driver auto/);
    const both = recordingIo();
    expect(await runCli(['profile', '--metrics', 'x', '--json', '--csv'], both)).toBe(2);
    expect(both.err()).toMatch(/--json and --csv both choose what is printed/);
    const section = recordingIo();
    expect(await runCli(['profile', '--section', 'SourceCounters'], section)).toBe(2);
    expect(section.err()).toMatch(/^kreplay: \[cli\] \[profile\] --section SourceCounters: kreplay leaves out ncu's SourceCounters/);
    expect(await runCli(['profile', '--set', 'everything'], recordingIo())).toBe(2);
    expect(await runCli(['profile', '--metrics', 'x', '--arg', 'data=pointer:sideways:1MiB'], recordingIo())).toBe(2);
    const badRange = recordingIo();
    expect(await runCli(['profile', '--metrics', 'x', '--range', 'everything'], badRange)).toBe(2);
    expect(badRange.err()).toMatch(/--range.*"everything" is not a whole number of dispatches per range >= 1/);
    for (const [flag, value] of [['--range', '0'], ['--measure', 'everything'], ['--cache-control', 'some'], ['--l2-flush', 'evict-last'], ['--instruction-cache', 'reload'], ['--warm-runs', '-1'], ['--warm-runs', 'one'], ['--samples', '0']] as const) {
      const bad = recordingIo();
      expect(await runCli(['profile', '--metrics', 'x', flag, value], bad)).toBe(2);
      expect(bad.err()).toContain(value);
    }
    const samples = recordingIo();
    expect(await runCli(['profile', '--metrics', 'x', '--samples', '3'], samples)).toBe(2);
    expect(samples.err()).toMatch(/^kreplay: \[cli\] \[profile\] --samples applies to capture:, whose launches start each sample from their captured memory, and the workload is scatter\. Leave out --samples, or profile a capture/);
    expect(() => parseDeclaredArgument('count=u32:read:4')).toThrow(/for pointers only/);
    expect(parseDeclaredArgument('data=pointer:readwrite:1MiB')).toEqual([{ name: 'data', type: 'pointer', access: 'readwrite', value: 2 ** 20 }]);
    expect(parseDeclaredArgument('factor=f32::2.5', [{ name: 'n', type: 'u32', value: 1 }])).toEqual([
      { name: 'n', type: 'u32', value: 1 },
      { name: 'factor', type: 'f32', value: 2.5 },
    ]);
    expect(parseDimensions('1024')).toEqual([1024, 1, 1]);
    expect(() => parseDimensions('0,1')).toThrow();
  });

  it("prints one block per dispatch, its metrics in ncu's table of --metrics with ncu's units", () => {
    const text = describeProfile({
      schema: 'urn:kreplay:schema:profile-report:1',
      schemaVersion: 1,
      driver: 'cuda',
      device: 'NVIDIA H200',
      chip: 'GH100',
      workload: 'scatter',
      strategy: 'dirty-pages',
      measure: 'kernel',
      cacheControl: 'all',
      range: 1,
      passes: 9,
      warmRuns: 0,
      samples: 1,
      conditions: { l2Flush: 'write-discard', instructionCache: 'evict', cacheControl: 'all', warmRuns: 0, samples: 1 },
      metrics: ['gpu__time_duration.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'],
      architecture: 'sm_90',
      sections: [],
      commandLineMetrics: ['gpu__time_duration.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'],
      units: { 'gpu__time_duration.sum': 'nanosecond', 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 'percent' },
      setupMs: 12,
      wallMs: 30.5,
      dispatches: [{ dispatch: 0, range: null, replayed: true, passes: 9, wallMs: 30.5, bytesCopied: 1024, metrics: { 'gpu__time_duration.sum': 198400, 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 17.28 } }],
      ranges: [],
    });
    expect(text).toContain('NVIDIA H200 (GH100), scatter; 9 passes per dispatch, strategy dirty-pages, kernel measured, L2 write-discard flush, instruction caches evicted; CUPTI setup 12.0 ms; 30.50 ms per dispatch');
    expect(text).toContain('  dispatch 0, Device 0, CC 9.0\n    Replay: dispatch 0, 9 passes, 30.50 ms wall, 1.0 KiB copied');
    expect(text).toContain('    Section: Command line profiler metrics');
    expect(text).toMatch(/\n {4}gpu__time_duration\.sum +us +198\.40\n/);
    expect(text).toMatch(/\n {4}sm__throughput\.avg\.pct_of_peak_sustained_elapsed +% +17\.28\n/);
  });

  it('refuses a bad workload or workload option with exit 2 before opening the driver (cuda is absent here)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-profile-'));
    const ptx = join(directory, 'k.ptx');
    await writeFile(ptx, '// not compiled before the driver opens\n');
    await writeFile(join(directory, 'args.json'), '[{"name": "data", "type": "pointer",');
    // A FIFO would block a plain read forever; the huge file is sparse (nothing is written).
    const fifo = join(directory, 'fifo.ptx');
    execFileSync('mkfifo', [fifo]);
    const huge = join(directory, 'huge.fatbin');
    await writeFile(huge, '');
    await truncate(huge, 2 ** 30 + 1);
    const metrics = ['--metrics', 'gpu__time_duration.sum'];
    for (const [args, pattern] of [
      [['--input-share', 'abc'], /^error: option '--input-share <f>' argument 'abc' is invalid\. "abc" is not a share in \[0, 1\]\./],
      [['--input-share', '1.5'], /^error: option '--input-share <f>' argument '1\.5' is invalid\./],
      [['--input-share', '0.5'], /^kreplay: \[cli\] \[profile\] --input-share 0\.5 does not fit the scatter workload: stateShare \+ inputShare must be <= 1, got 1\.3/],
      [['--footprint', '64KiB'], /^kreplay: \[cli\] \[profile\] --footprint 65536 does not fit the scatter workload: footprintBytes must be a whole number >= 262144/],
      [['sideways'], /^kreplay: \[cli\] \[profile\] unknown workload "sideways"; use scatter, ptx:<file>:<kernel> or capture:<dir>\./],
      [['ptx:nothing'], /^kreplay: \[cli\] \[profile\] "ptx:nothing" is not ptx:<file>:<kernel>\./],
      [[`ptx:${ptx}:scale`], /^kreplay: \[cli\] \[profile\] a ptx workload needs --grid and --block\./],
      [[`ptx:${join(directory, 'missing.ptx')}:scale`, '--grid', '1', '--block', '32'], /^kreplay: \[cli\] \[profile\] ptx:.*missing\.ptx:scale: .*missing\.ptx is missing\./],
      [[`ptx:${directory}:scale`, '--grid', '1', '--block', '32'], /^kreplay: \[cli\] \[profile\] ptx:.*:scale: .* is a directory, not a regular file\./],
      [[`ptx:${fifo}:scale`, '--grid', '1', '--block', '32'], /^kreplay: \[cli\] \[profile\] ptx:.*fifo\.ptx:scale: .*fifo\.ptx is a FIFO, not a regular file\./],
      [[`ptx:${huge}:scale`, '--grid', '1', '--block', '32'], /^kreplay: \[cli\] \[profile\] ptx:.*huge\.fatbin:scale: .*huge\.fatbin is 1073741825 bytes, more than the 1073741824 this reader takes\./],
      [[`ptx:${ptx}:scale`, '--grid', '1', '--block', '32', '--args', join(directory, 'args.json')], /^kreplay: \[cli\] \[profile\] --args .*args\.json: is not JSON/],
      [[`ptx:${ptx}:scale`, '--grid', '1', '--block', '32', '--args', join(directory, 'none.json')], /^kreplay: \[cli\] \[profile\] --args .*none\.json: .*none\.json is missing\./],
      [[`ptx:${ptx}:scale`, '--grid', '1', '--block', '32', '--args', fifo], /^kreplay: \[cli\] \[profile\] --args .*fifo\.ptx: .*fifo\.ptx is a FIFO, not a regular file\./],
      [[`ptx:${ptx}:scale`, '--grid', '1', '--block', '32', '--args', directory], /^kreplay: \[cli\] \[profile\] --args .*: .* is a directory, not a regular file\./],
      [[`ptx:${ptx}:scale`, '--grid', '1', '--block', '32', '--input-share', '0.1'], /^kreplay: \[cli\] \[profile\] --input-share only applies with the scatter workload\./],
      [['--arg', 'n=u32::4'], /^kreplay: \[cli\] \[profile\] --arg only applies with a ptx workload\./],
      [['--grid', '4'], /^kreplay: \[cli\] \[profile\] --grid only applies with a ptx workload\./],
    ] as const) {
      const io = recordingIo();
      expect(await runCli(['profile', ...metrics, ...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(pattern);
      expect(io.err()).not.toMatch(/driver/);
      expect(io.err().trim().split('\n')).toHaveLength(1);
    }
    const none = recordingIo();
    expect(await runCli(['profile', '--metrics', ' , '], none)).toBe(2);
    expect(none.err()).toMatch(/^kreplay: \[cli\] \[profile\] --metrics names no metric \(" , "\)\. Pass CUPTI metric names/);
  });

  it('capture:<dir>: checks the folder and refuses the options of the other workloads before the driver opens', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kreplay-profile-capture-'));
    const capture = writeTestCapture(join(directory, 'capture'), {
      launches: [{ function: 'k', module: new Uint8Array([1]), grid: [1, 1, 1], block: [1, 1, 1], parameters: new Uint8Array(8), memory: [{ base: 0x7f0000000000, kind: 'device', before: new Uint8Array(64) }] }],
    });
    const empty = writeTestCapture(join(directory, 'empty'), { launches: [] });
    const allDamaged = writeTestCapture(join(directory, 'all-damaged'), {
      launches: [{ function: 'k', module: new Uint8Array([1]), grid: [1, 1, 1], block: [1, 1, 1], parameters: new Uint8Array(8), memory: [{ base: 0x7f0000000000, kind: 'device', before: new Uint8Array(64) }] }],
    });
    await writeFile(join(allDamaged, 'launches', '00000000.json'), '{"cut');
    const metrics = ['--metrics', 'gpu__time_duration.sum'];
    for (const [args, pattern] of [
      [[`capture:${capture}`, '--dispatches', '3'], /^kreplay: \[cli\] \[profile\] --dispatches does not apply to a capture: every captured launch is profiled, with its own shape and memory/],
      [['scatter', '--range', 'auto'], /^kreplay: \[cli\] \[profile\] --range auto replays the captured sequences of a capture, and the workload is not one\. Pass --range K/],
      [[`capture:${capture}`, '--footprint', '1GiB'], /--footprint does not apply to a capture/],
      [[`capture:${capture}`, '--grid', '1'], /--grid does not apply to a capture/],
      [['capture:'], /"capture:" names no folder; use capture:<dir>/],
      [[`capture:${join(directory, 'none')}`], /capture:.*none: .*holds no readable manifest\.json .*\. Pass the folder that `kreplay capture -o` wrote\. See kreplay profile --help\./],
      [[`capture:${empty}`], /capture:.*empty holds no complete launch/],
      [[`capture:${allDamaged}`], /capture:.*all-damaged holds no complete launch \(1 damaged: launches\/00000000\.json is not valid JSON/],
      [[`capture:${capture}`, '--driver', 'host'], /a capture is replayed on the cuda driver, not --driver host/],
    ] as const) {
      const io = recordingIo();
      expect(await runCli(['profile', ...metrics, ...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(pattern);
      expect(io.err().trim().split('\n')).toHaveLength(1);
    }
  });

  it('names the kernel of each captured launch', () => {
    const text = describeProfile({
      schema: 'urn:kreplay:schema:profile-report:1',
      schemaVersion: 1,
      driver: 'cuda',
      device: 'NVIDIA H200',
      chip: 'GH100',
      workload: 'capture:step (1 launches)',
      strategy: 'dirty-pages',
      measure: 'kernel',
      cacheControl: 'all',
      range: 1,
      passes: 1,
      warmRuns: 1,
      samples: 3,
      conditions: { l2Flush: 'none', instructionCache: 'keep', cacheControl: 'all', warmRuns: 1, samples: 3 },
      metrics: ['gpu__time_duration.sum'],
      architecture: 'sm_90',
      sections: [],
      commandLineMetrics: ['gpu__time_duration.sum'],
      units: { 'gpu__time_duration.sum': 'nanosecond' },
      setupMs: 1,
      wallMs: 2,
      dispatches: [{ dispatch: 3, kernel: '_Z4gemmPfS_', range: null, replayed: false, passes: 1, wallMs: 2, bytesCopied: 0, metrics: { 'gpu__time_duration.sum': 1000 } }],
      ranges: [],
    });
    expect(text).toContain('capture:step (1 launches); 1 pass per dispatch after 1 unprofiled run, medians of 3 samples, strategy dirty-pages, kernel measured, no L2 flush, instruction caches kept;');
    expect(text).toContain('  gemm(float*, float*), Device 0, CC 9.0\n    Replay: launch 3, 1 passes, 2.00 ms wall, 0 B copied (not replayed)');
  });

  it('lists the ranges of a capture\'s captured sequences, with passes, bytes restored and wall time per launch, and each launch\'s range', () => {
    const row = (dispatch: number, range: number | null) => ({ dispatch, kernel: `k${dispatch}`, range, replayed: true, passes: 9, wallMs: 1, bytesCopied: 512, metrics: { 'gpu__time_duration.sum': 1000 } });
    const report = {
      schema: 'urn:kreplay:schema:profile-report:1' as const,
      schemaVersion: 1 as const,
      driver: 'cuda',
      device: 'NVIDIA H200',
      chip: 'GH100',
      workload: 'capture:step (3 launches)',
      strategy: 'dirty-pages',
      measure: 'kernel' as const,
      cacheControl: 'all' as const,
      range: 'auto' as const,
      passes: 9,
      warmRuns: 2,
      samples: 3,
      conditions: { l2Flush: 'write-discard' as const, instructionCache: 'evict' as const, cacheControl: 'all' as const, warmRuns: 2, samples: 3 },
      metrics: ['gpu__time_duration.sum'],
      architecture: 'sm_90',
      sections: [],
      commandLineMetrics: ['gpu__time_duration.sum'],
      units: { 'gpu__time_duration.sum': 'nanosecond' },
      setupMs: 1,
      wallMs: 2,
      dispatches: [row(0, 0), row(1, null), row(2, 0)],
      ranges: [
        { first: 0, dispatches: 2, launches: [0, 2], replayed: true, passes: 11, wallMs: 30, wallMsPerDispatch: 15, bytesCopied: 3072, bytesBefore: 1024, bytesPrepared: 4096, tier: 'device' as const, bytes: { deviceToDevice: 3072, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0, staging: { device: 0, 'host-pinned': 0, 'host-pageable': 0 } } },
      ],
      notes: ['launch 0 follows launch 9'],
    };
    const text = describeProfile(report);
    expect(text).toContain('strategy dirty-pages, kernel measured, ranges of whole captured sequences (cache control all)');
    expect(text).toContain('\nnote: launch 0 follows launch 9\n');
    expect(text).toContain('\nrange 0: launches 0, 2 (2): 11 passes, 30.00 ms wall (15.00 ms per launch), 3.0 KiB restored, 1.0 KiB copied before launches\n');
    expect(text).toContain('\n  k2, Device 0, CC 9.0\n    Replay: launch 2, 9 passes, in range 0\n');
    expect(text).toContain('\n  k1, Device 0, CC 9.0\n    Replay: launch 1, 9 passes, 1.00 ms wall, 512 B copied\n');
  });

  it('capture:: lists each damaged launch and each launch that failed, and fails (exit 1) when one did', () => {
    const report: ProfileReport = {
      schema: 'urn:kreplay:schema:profile-report:1',
      schemaVersion: 1,
      driver: 'cuda',
      device: 'NVIDIA H200',
      chip: 'GH100',
      workload: 'capture:step (2 launches)',
      strategy: 'dirty-pages',
      measure: 'kernel',
      cacheControl: 'all',
      range: 1,
      passes: 1,
      warmRuns: 2,
      samples: 1,
      conditions: { l2Flush: 'write-discard', instructionCache: 'evict', cacheControl: 'all', warmRuns: 2, samples: 3 },
      metrics: ['gpu__time_duration.sum'],
      architecture: 'sm_90',
      sections: [],
      commandLineMetrics: ['gpu__time_duration.sum'],
      units: { 'gpu__time_duration.sum': 'nanosecond' },
      setupMs: 1,
      wallMs: 2,
      dispatches: [
        { dispatch: 0, kernel: 'gemm', range: null, replayed: true, passes: 1, wallMs: 1, bytesCopied: 0, metrics: { 'gpu__time_duration.sum': 1000 } },
        { dispatch: 2, kernel: 'relu\u001b[2J', range: null, replayed: false, passes: 0, wallMs: 0, bytesCopied: 0, metrics: null, error: 'the launch failed: illegal address' },
      ],
      ranges: [],
      damaged: ['launches/00000001.json: memory[0].pagesBefore[0] names a damaged blob: blobs/ab/ab-4096 is missing'],
    };
    const text = describeProfile(report);
    expect(text).toContain('  relu\\x1b[2J, Device 0, CC 9.0\n    Replay: launch 2, 0 passes, 0.00 ms wall, 0 B copied (not replayed)\n    error: the launch failed: illegal address\n');
    expect(text).toContain('profiled 1/3 captured launches; failed 1: 2 relu\\x1b[2J; damaged 1 (not profiled)\n');
    expect(text).toContain('damaged, not profiled: launches/00000001.json: memory[0].pagesBefore[0] names a damaged blob: blobs/ab/ab-4096 is missing\n');
    expect(captureProfileFailure(report)?.message).toBe(
      "[cli] [profile] 2 of 3 captured launches were not profiled: 2 relu\\x1b[2J (failed), 1 damaged record (each listed with its reason). See each launch's error above (kreplay replay --capture DIR runs the launches without counters); capture the program again for the damaged launches (kreplay capture -o a new folder).",
    );
    const whole = { ...report, dispatches: [report.dispatches[0]!], damaged: [] };
    expect(captureProfileFailure(whole)).toBeUndefined();
    expect(describeProfile(whole)).toContain('profiled 1/1 captured launches\n');
    // A workload that is no capture is judged as before.
    expect(captureProfileFailure({ ...report, damaged: undefined })).toBeUndefined();
  });
});
