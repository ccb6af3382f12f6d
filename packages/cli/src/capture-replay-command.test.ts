import { execFileSync } from 'node:child_process';
import { closeSync, constants, cpSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestCapture } from '@kreplay/native/test';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCaptureReplay, type CaptureLaunchRow, type CaptureReplayReport } from './capture-replay-run.js';
import { captureReplayFailure } from './commands/replay-command.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

// What `kreplay replay --capture` checks before it opens a driver, and how it reports; the replay
// itself runs on the cuda driver (native's test/gpu/cuda-capture-replay.test.ts on the fake libcuda).
const root = mkdtempSync(join(tmpdir(), 'kreplay-replay-capture-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const capture = writeTestCapture(join(root, 'capture'), {
  launches: [
    {
      function: 'axpy',
      module: new Uint8Array([1, 2, 3]),
      grid: [1, 1, 1],
      block: [32, 1, 1],
      parameters: new Uint8Array(24),
      memory: [{ base: 0x7f00_0000_0000, kind: 'device', before: new Uint8Array(4096) }],
    },
  ],
});
const empty = writeTestCapture(join(root, 'empty'), { launches: [] });

/** A launch's row of a capture replay; `extra` overrides. */
const row = (sequence: number, outcome: CaptureLaunchRow['outcome'], extra: Partial<CaptureLaunchRow> = {}): CaptureLaunchRow => ({
  sequence,
  function: `kernel${sequence}`,
  range: null,
  outcome,
  replayed: true,
  passes: 3,
  verification: outcome === 'mismatch' ? 'mismatch' : 'verified',
  nondeterministic: false,
  bytesCopied: 8192,
  bytesPrepared: 4096,
  relocatedRegions: 0,
  wallMs: 1,
  postLaunch: { reproduced: outcome === 'reproduced', pagesCompared: 4, pagesMismatched: outcome === 'reproduced' ? 0 : 1, mismatches: [] },
  notes: [],
  ...extra,
});

/** A capture replay's report of no launch; `extra` overrides. */
const replayReport = (extra: Partial<CaptureReplayReport>): CaptureReplayReport => ({
  capture: '/captures/train',
  driver: 'cuda',
  device: 'NVIDIA H200',
  strategy: 'dirty-pages',
  tier: 'auto',
  passes: 3,
  verify: 'full',
  range: 1,
  rangeLength: 1,
  graphProfiling: 'node',
  relocations: [],
  ranges: [],
  notes: [],
  launches: [],
  reproduced: 0,
  mismatched: [],
  failed: [],
  declined: [],
  damaged: [],
  seconds: 0.5,
  ...extra,
});

describe('kreplay replay --capture', () => {
  it('needs the cuda driver: another driver is a usage error (exit 2) before anything opens', async () => {
    for (const driver of ['host', 'hsa']) {
      const io = recordingIo();
      expect(await runCli(['replay', '--capture', capture, '--driver', driver], io)).toBe(2);
      expect(io.err()).toMatch(new RegExp(`^kreplay: \\[cli\\] \\[replay\\] --capture needs the cuda driver, not --driver ${driver}: .*\\n$`));
      expect(io.out()).toBe('');
    }
  });

  it('refuses the workload options it replaces, and folders that hold no capture or no launch', async () => {
    const notCapture = join(root, 'not-a-capture');
    mkdirSync(notCapture, { recursive: true });
    const cases: [string[], RegExp][] = [
      [['--footprint', '1MiB'], /--footprint describes the generated workload, which --capture replaces/],
      [['--dispatches', '3'], /--dispatches describes the generated workload/],
      [['--agents', '2'], /--agents describes the generated workload/],
    ];
    for (const [extra, message] of cases) {
      const io = recordingIo();
      expect(await runCli(['replay', '--capture', capture, ...extra], io), extra.join(' ')).toBe(2);
      expect(io.err()).toMatch(message);
    }
    for (const [args, message] of [
      [['replay', '--capture', capture, '--range', '0'], /--range.*"0" is not auto or a whole number of launches per range >= 1/],
      [['replay', '--driver', 'host', '--range', 'auto'], /\[replay\] --range auto replays the captured sequences of a capture, and there is no --capture\. Pass --range K/],
    ] as const) {
      const io = recordingIo();
      expect(await runCli([...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(message);
    }
    const missing = recordingIo();
    expect(await runCli(['replay', '--capture', notCapture, '--driver', 'cuda'], missing)).toBe(2);
    expect(missing.err()).toMatch(/--capture .*not-a-capture: .*holds no readable manifest\.json .*\. Pass the folder that `kreplay capture -o` wrote\. See kreplay replay --help\.\n$/);
    const emptyPath = recordingIo();
    expect(await runCli(['replay', '--capture', '', '--driver', 'cuda'], emptyPath)).toBe(2);
    expect(emptyPath.err()).toMatch(/^kreplay: \[cli\] \[replay\] --capture names no folder: the path is empty\. Pass the folder that `kreplay capture -o` wrote\.\n$/);
    const none = recordingIo();
    expect(await runCli(['replay', '--capture', empty, '--driver', 'cuda'], none)).toBe(2);
    expect(none.err()).toMatch(/--capture .*empty holds no complete launch\. Capture the program again\./);
  });

  it('refuses a folder that several processes captured into (exit 2 before a driver opens), naming each capture; one of them replays', async () => {
    const processes = join(root, 'processes-folder');
    const one = { launches: [{ function: 'axpy', module: new Uint8Array([1, 2, 3]), grid: [1, 1, 1] as const, block: [32, 1, 1] as const, parameters: new Uint8Array(24), memory: [] }] };
    for (const pid of ['4100', '4200']) writeTestCapture(join(processes, 'processes', pid), one);
    for (const args of [
      ['replay', '--capture', processes, '--driver', 'cuda'],
      ['profile', `capture:${processes}`, '--metrics', 'gpu__time_duration.sum'],
    ]) {
      const io = recordingIo();
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.err()).toContain(`${processes} holds the captures of 2 processes: ${join(processes, 'processes', '4100')}, ${join(processes, 'processes', '4200')}`);
      expect(io.err()).toMatch(/Pass one of them, e\.g\. .*processes\/4100/);
    }
    // One process's capture is a folder of its own: it gets past reading (to the selection here).
    const io = recordingIo();
    expect(await runCli(['replay', '--capture', join(processes, 'processes', '4100'), '--driver', 'cuda', '--kernel-name', 'gemm'], io)).toBe(2);
    expect(io.err()).toMatch(/no captured launch of .*4100 matches --kernel-name gemm \(--kernel-name-base function\); it holds axpy/);
  });

  it('names a damaged record of a capture (here a directory), and refuses a FIFO for a manifest at once (exit 2 before a driver opens)', async () => {
    const damaged = join(root, 'record-directory');
    cpSync(capture, damaged, { recursive: true });
    rmSync(join(damaged, 'launches/00000000.json'));
    mkdirSync(join(damaged, 'launches/00000000.json'));
    const fifo = join(root, 'manifest-fifo');
    cpSync(capture, fifo, { recursive: true });
    rmSync(join(fifo, 'manifest.json'));
    execFileSync('mkfifo', [join(fifo, 'manifest.json')]);
    try {
      const cases: [string[], RegExp][] = [
        [['replay', '--capture', damaged, '--driver', 'cuda'], /record-directory holds no complete launch \(1 damaged: launches\/00000000\.json is a directory, not a regular file\)\./],
        [['profile', `capture:${damaged}`, '--metrics', 'gpu__time_duration.sum'], /launches\/00000000\.json is a directory, not a regular file/],
        [['replay', '--capture', fifo, '--driver', 'cuda'], /--capture .*manifest-fifo: .*holds no readable manifest\.json \(it is a FIFO, not a regular file\)\. Pass the folder/],
        [['profile', `capture:${fifo}`, '--metrics', 'gpu__time_duration.sum'], /manifest-fifo.*holds no readable manifest\.json \(it is a FIFO, not a regular file\)/],
      ];
      for (const [args, message] of cases) {
        const io = recordingIo();
        // A reader that blocks on the FIFO fails here instead of hanging the test.
        const code = await Promise.race([runCli(args, io), new Promise((resolve) => setTimeout(resolve, 20_000, 'blocked'))]);
        expect(code, args.join(' ')).toBe(2);
        expect(io.err(), args.join(' ')).toMatch(message);
        expect(io.out()).toBe('');
      }
    } finally {
      // Releases a reader that regressed and blocks on opening the FIFO.
      closeSync(openSync(join(fifo, 'manifest.json'), constants.O_RDWR | constants.O_NONBLOCK));
    }
  }, 60_000);

  it('selects launches by kernel name, skip and count only of a capture, and says when none is left (exit 2 before a driver opens)', async () => {
    const cases: [string[], RegExp][] = [
      [['replay', '--kernel-name', 'axpy'], /\[replay\] --kernel-name selects launches of a capture, and there is no --capture\. Pass --capture DIR, or leave out --kernel-name\./],
      [['replay', '--capture', capture, '--driver', 'cuda', '--kernel-name', 'gemm'], /no captured launch of .*capture matches --kernel-name gemm \(--kernel-name-base function\); it holds axpy\. Change the selection/],
      // ncu's --kernel-name: the whole name, unless regex:.
      [['replay', '--capture', capture, '--driver', 'cuda', '--kernel-name', 'axp'], /no captured launch of .*capture matches --kernel-name axp /],
      [['replay', '--capture', capture, '--driver', 'cuda', '--kernel-name', 'regex:^_Z', '--kernel-name-base', 'mangled'], /no captured launch of .*capture matches --kernel-name regex:\^_Z \(--kernel-name-base mangled\); it holds axpy/],
      [['replay', '--kernel-name-base', 'demangled'], /\[replay\] --kernel-name-base selects launches of a capture, and there is no --capture/],
      [['replay', '--capture', capture, '--driver', 'cuda', '--launch-skip', '1'], /--launch-skip 1 passes over all 1 matching launches of .*capture/],
      [['replay', '--capture', capture, '--kernel-name', 'regex:(unclosed'], /"regex:\(unclosed" cannot select kernels/],
      [['profile', 'scatter', '--metrics', 'gpu__time_duration.sum', '--launch-count', '1'], /\[profile\] --launch-count selects launches of a capture, and the workload is scatter/],
      [['profile', `capture:${capture}`, '--metrics', 'gpu__time_duration.sum', '--kernel-name', '^gemm$'], /\[profile\] no captured launch of .*capture matches --kernel-name \^gemm\$/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo();
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.err(), args.join(' ')).toMatch(message);
      expect(io.out()).toBe('');
    }
  });

  it('reports each launch and the counts, and fails when one mismatched', () => {
    const mismatching = row(1, 'mismatch', {
      relocatedRegions: 3,
      postLaunch: { reproduced: false, pagesCompared: 4, pagesMismatched: 2, mismatches: [{ address: 0x7f0000000000, bytes: 131072, kind: 'device', label: '', pages: [0, 1] }] },
    });
    const report = replayReport({ launches: [row(0, 'reproduced'), mismatching], reproduced: 1, mismatched: ['1 kernel1'] });
    const text = describeCaptureReplay(report);
    expect(text).toContain('dirty-pages on cuda (NVIDIA H200, tier auto): 2 captured launches of /captures/train, 3 passes each, verify full; each launch alone');
    expect(text).toContain("  reproduced 0 kernel0: 3 passes, 8.0 KiB copied, verification verified; memory after = the program's (4 pages)");
    expect(text).toContain("  mismatch   1 kernel1: 3 passes, 8.0 KiB copied, 3 regions relocated, verification mismatch; memory after differs from the program's in 2 of 4 pages");
    expect(text).toContain('    differs: device at 0x7f0000000000 (131072 bytes), pages 0, 1');
    expect(text).toContain('  reproduced 1/2; mismatch 1: 1 kernel1; 0.500 s');
    expect(captureReplayFailure(report)?.message).toMatch(/^\[cli\] \[replay\] 1 of 2 captured launches did not reproduce the program: 1 kernel1 \(mismatch\)\./);
    expect(captureReplayFailure({ ...report, launches: [row(0, 'reproduced')], mismatched: [] })).toBeUndefined();

    // Launches 0, 1 and 3 in one range, launch 2 alone.
    const ranged = describeCaptureReplay({
      ...report,
      range: 'auto',
      rangeLength: 1000,
      notes: ['launch 0 follows launch 9, which is not among the launches'],
      ranges: [
        { first: 0, launches: [0, 1, 3], replayed: true, passes: 3, verification: 'verified', bytesCopied: 3 * 8192, bytesBefore: 4096, bytesPrepared: 65536, wallMs: 6, wallMsPerLaunch: 2, notes: [] },
      ],
      launches: [row(0, 'reproduced', { range: 0 }), row(1, 'reproduced', { range: 0 }), row(2, 'reproduced'), row(3, 'reproduced', { range: 0 })],
      reproduced: 4,
      mismatched: [],
    });
    expect(ranged).toContain('3 passes each, verify full; ranges: whole captured sequences, up to 1000 launches each\n  note: launch 0 follows launch 9');
    expect(ranged).toContain('  range 0: launches 0-1, 3 (3): 3 passes, 24.0 KiB restored, 4.0 KiB copied before launches, 6.00 ms wall, 2.00 ms per launch, verification verified\n');
    expect(ranged).toContain("  reproduced 1 kernel1: in range 0, verification verified; memory after = the program's (4 pages)");
    expect(ranged).toContain("  reproduced 2 kernel2: 3 passes, 8.0 KiB copied, verification verified");
    const failed = { ...report, launches: [row(0, 'failed', { error: 'load: no kernel' })], mismatched: [], failed: ['0 kernel0: load: no kernel'] };
    expect(captureReplayFailure(failed)?.message).toBe("[cli] [replay] 1 of 1 captured launches did not reproduce the program: 0 kernel0 (failed). See each failed launch's error above (under failed with --json).");
  });

  it('counts declined and damaged launches apart from the reproduced ones, and fails on a damaged one', () => {
    const declined = row(0, 'declined', {
      function: 'gemm',
      replayed: false,
      passes: 1,
      verification: 'not-run',
      bytesCopied: 0,
      postLaunch: { reproduced: true, pagesCompared: 4, pagesMismatched: 0, mismatches: [] },
      declineReason: 'no staging for 8192 bytes',
    });
    const report = replayReport({ strategy: 'full', launches: [declined], declined: ['0 gemm: no staging for 8192 bytes'] });
    const text = describeCaptureReplay(report);
    expect(text).toContain("  declined   0 gemm: run once, verification not-run; memory after = the program's (4 pages)\n    declined: no staging for 8192 bytes\n");
    expect(text).toContain('  reproduced 0/1; declined 1 (run once, not replayed); 0.500 s');
    expect(captureReplayFailure(report)).toBeUndefined();
    const damaged = { ...report, damaged: ['launches/00000001.json is not valid JSON (Unexpected end of JSON input); it was cut short or overwritten'] };
    const damagedText = describeCaptureReplay(damaged);
    expect(damagedText).toContain('  reproduced 0/2; declined 1 (run once, not replayed); damaged 1 (not replayed); 0.500 s\n  damaged, not replayed: launches/00000001.json is not valid JSON');
    expect(captureReplayFailure(damaged)?.message).toBe(
      '[cli] [replay] 1 of 2 captured launches did not reproduce the program: 1 damaged record (each listed with its reason). Capture the program again for the damaged launches (kreplay capture -o a new folder).',
    );
  });

  it('prints the control characters of captured names escaped, and keeps them exact in JSON', () => {
    const evil = row(0, 'mismatch', { function: 'evil\u001b]0;owned\u0007\u001b[2Jname\u202e', passes: 2, bytesCopied: 0, postLaunch: null, error: 'bad \u001b[31mred' });
    const report = replayReport({ device: 'GPU\u001b[0m', verify: 'restore', launches: [evil], mismatched: [`0 ${evil.function}`], damaged: ['launches/00000001.json: function \u001b[1mx'] });
    const text = describeCaptureReplay(report);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('0 evil\\x1b]0;owned\\x07\\x1b[2Jname\\u202e: 2 passes');
    expect(text).toContain('(GPU\\x1b[0m, tier auto)');
    expect(text).toContain('error: bad \\x1b[31mred');
    expect(text).toContain('damaged, not replayed: launches/00000001.json: function \\x1b[1mx');
    expect(captureReplayFailure(report)?.message).toContain('0 evil\\x1b]0;owned\\x07\\x1b[2Jname\\u202e (mismatch)');
    expect(JSON.parse(JSON.stringify(report)).launches[0].function).toBe(evil.function);
  });
});
