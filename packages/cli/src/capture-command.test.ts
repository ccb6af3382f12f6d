import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { captureResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { captureLibraryPath } from '@kreplay/native';
import type { CaptureReport } from './commands/capture-command.js';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

// `kreplay capture` over a node script standing in for a CUDA program: it records the environment it
// was given and writes the capture folder the library would have written (see the fixture).
const fakeProgram = fileURLToPath(new URL('./__fixtures__/fake-cuda-program.mjs', import.meta.url));
const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-command-'));
// Any file will do as the library: the stand-in program does not load it.
const library = join(root, 'libkreplay-capture.so');
writeFileSync(library, '');
afterAll(() => rmSync(root, { recursive: true, force: true }));

let runs = 0;
function paths() {
  runs += 1;
  return { out: join(root, `capture-${runs}`), seen: join(root, `seen-${runs}.json`) };
}

const seenBy = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { environment: Record<string, string>; argv: string[]; pid: number };
/** Where the stand-in program (as the capture library) wrote: its own sub-capture of the folder. */
const processFolder = (out: string, seen: string) => join(out, 'processes', String(seenBy(seen).pid));

afterEach(() => {
  delete process.env['KREPLAY_CAPTURE_EVERY_LAUNCH'];
});

describe('kreplay capture', () => {
  it('runs the program with the capture library and the selection in its environment, then summarizes the folder', async () => {
    const { out, seen } = paths();
    // A variable left in the shell from another capture does not reach the program.
    process.env['KREPLAY_CAPTURE_EVERY_LAUNCH'] = '1';
    const io = recordingIo();
    const command = [process.execPath, fakeProgram, seen];
    const code = await runCli(['capture', '--kernel-name', 'regex:axpy|gemm', '--launch-skip', '1', '--launch-count', '2', '--library', library, '-o', out, '--', ...command], io);
    expect(code, io.err()).toBe(0);
    expect(seenBy(seen).environment).toEqual({
      CUDA_INJECTION64_PATH: library,
      KREPLAY_CAPTURE_DIR: resolve(out),
      KREPLAY_CAPTURE_COMMAND: JSON.stringify(command),
      KREPLAY_CAPTURE_KERNEL_NAME: 'regex:axpy|gemm',
      KREPLAY_CAPTURE_KERNEL_NAME_BASE: 'function',
      KREPLAY_CAPTURE_LAUNCH_SKIP: '1',
      KREPLAY_CAPTURE_LAUNCH_COUNT: '2',
      KREPLAY_CAPTURE_STAGING_BYTES: String(256 * 2 ** 20),
      KREPLAY_CAPTURE_WRITER_THREADS: 'auto',
    });
    expect(io.err()).toContain('capturing every launch of every kernel whose function name matches /axpy|gemm/, after skipping 1, at most 2');
    const text = io.out();
    expect(text).toContain(`captured 3 launches of 2 kernels on Fake GPU (sm_90) into ${processFolder(out, seen)}\n`);
    expect(text).toMatch(/ {2}\d+(\.\d+)? (B|KiB) stored in 2 blobs\n/);
    expect(text).toContain('not captured: graph-launch 2, managed-memory 1');
    expect(text).toContain('    2  _Z4axpyPfPKffj\n');
    expect(text).toContain('    1  reduce\n');
    expect(text).toContain('  captured sequences: not recorded (a capture of format version 1)\n');
  });

  it('--staging-bytes and --writer-threads set their variables; --json records them, and a capture of format version 2 says its sequences and cost', async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    const command = [process.execPath, fakeProgram, seen, 'version-2'];
    expect(await runCli(['capture', '--staging-bytes', '64MiB', '--writer-threads', '3', '--json', '--library', library, '-o', out, '--', ...command], io), io.err()).toBe(0);
    expect(seenBy(seen).environment).toMatchObject({ KREPLAY_CAPTURE_STAGING_BYTES: String(64 * 2 ** 20), KREPLAY_CAPTURE_WRITER_THREADS: '3' });
    const report = JSON.parse(io.out()) as CaptureReport;
    expect(report).toMatchObject({ schema: 'urn:kreplay:schema:capture-result:1', schemaVersion: 1 });
    expect(jsonSchemaProblem(captureResultJsonSchema, report)).toBeNull();
    expect(report.settings).toEqual({ stagingBytes: 64 * 2 ** 20, writerThreads: 3 });
    expect(report.capture).toMatchObject({ formatVersion: 2, sequences: 2, sequenceBreaks: { 'other-stream': 1 }, cost: { launches: 3, programWaitSeconds: 0.75 } });
    const text = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', paths().out, '--', ...command], text), text.err()).toBe(0);
    expect(text.out()).toContain('  2 captured sequences; started anew: other-stream 1\n');
    expect(text.out()).toContain('  capture cost: 2.5 s, the program waited 0.8 s; 3.0 GiB hashed on the device, 1.0 GiB copied to the host, 8.0 KiB stored in 2 new blobs\n');
  });

  it("injects @kreplay/native's own capture library by default", async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    expect(await runCli(['capture', '-o', out, '--', process.execPath, fakeProgram, seen], io), io.err()).toBe(0);
    expect(seenBy(seen).environment['CUDA_INJECTION64_PATH']).toBe(captureLibraryPath());
    expect(io.err()).toContain('capturing the first launch of each kernel into');
  });

  it('--every-launch sets its variable, and --json prints the program and the capture as one object', async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    const command = [process.execPath, fakeProgram, seen];
    expect(await runCli(['capture', '--every-launch', '--json', '--library', library, '-o', out, '--', ...command], io)).toBe(0);
    expect(seenBy(seen).environment['KREPLAY_CAPTURE_EVERY_LAUNCH']).toBe('1');
    expect(seenBy(seen).environment['KREPLAY_CAPTURE_KERNEL_NAME']).toBeUndefined();
    expect(seenBy(seen).environment['KREPLAY_CAPTURE_PROFILE_FROM_START']).toBeUndefined();
    const report = JSON.parse(io.out()) as CaptureReport;
    expect(jsonSchemaProblem(captureResultJsonSchema, report)).toBeNull();
    expect(report.program).toEqual({ command, exitCode: 0, signal: null });
    expect(report.capture).toMatchObject({
      directory: processFolder(out, seen),
      pid: seenBy(seen).pid,
      command,
      launches: 3,
      kernels: [
        // The stand-in's module is no module image: nothing to say of the kernels' code.
        { function: '_Z4axpyPfPKffj', launches: 2, codeBytes: null, registers: null },
        { function: 'reduce', launches: 1, codeBytes: null, registers: null },
      ],
      blobs: 2,
      notCaptured: { 'graph-launch': 2, 'managed-memory': 1 },
      complete: true,
      damaged: [],
      incomplete: [],
    });
    expect(report.capture!.bytesStored).toBeGreaterThan(4096);
    expect(report.processes).toEqual([report.capture]);
  });

  it('summarizes a folder a capture library of before sub-captures wrote (the capture at its top)', async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', out, '--', process.execPath, fakeProgram, seen, 'flat'], io), io.err()).toBe(0);
    expect(io.out()).toContain(`captured 3 launches of 2 kernels on Fake GPU (sm_90) into ${out}\n`);
  });

  it('fails (exit 2) when the capture library could not use the kernel-name pattern, which its manifest records', async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', out, '--', process.execPath, fakeProgram, seen, 'bad-selection'], io)).toBe(2);
    expect(io.err()).toContain(
      `kreplay: [cli] [capture] the capture library selected nothing in process ${seenBy(seen).pid}: KREPLAY_CAPTURE_KERNEL_NAME=(?<=_)gemm is not a valid regular expression for the capture library`,
    );
  });

  it('--profile-from-start off limits the capture to cuProfilerStart..cuProfilerStop, and other values are refused', async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    expect(await runCli(['capture', '--profile-from-start', 'off', '--library', library, '-o', out, '--', process.execPath, fakeProgram, seen], io), io.err()).toBe(0);
    expect(seenBy(seen).environment['KREPLAY_CAPTURE_PROFILE_FROM_START']).toBe('off');
    expect(io.err()).toContain('between cuProfilerStart and cuProfilerStop');
    const bad = recordingIo();
    expect(await runCli(['capture', '--profile-from-start', 'later', '--library', library, '-o', paths().out, '--', process.execPath, fakeProgram, seen], bad)).toBe(2);
    expect(bad.err()).toContain("'later' is invalid");
  });

  it("exits with the program's code, or 128 + the signal that ended it, saying what the folder kept", async () => {
    const failing = paths();
    const io = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', failing.out, '--', process.execPath, fakeProgram, failing.seen, '3'], io)).toBe(3);
    expect(io.out()).toContain('captured 3 launches');
    expect(io.err()).toContain(`kreplay: [cli] [capture] the program exited with 3. ${failing.out} holds the 3 launches captured before`);
    const killed = paths();
    const killedIo = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', killed.out, '--', process.execPath, fakeProgram, killed.seen, 'SIGKILL'], killedIo)).toBe(137);
    expect(killedIo.err()).toContain('the program was ended by SIGKILL');
  });

  it('says how many launches the folder holds while the program runs', async () => {
    const { out, seen } = paths();
    const io = recordingIo({ progressIntervalMs: 50 });
    expect(await runCli(['capture', '--library', library, '-o', out, '--', process.execPath, fakeProgram, seen, 'slow'], io)).toBe(0);
    expect(io.err()).toContain('kreplay capture: 3 launches captured so far\n');
  });

  it('fails when the program ran but wrote no capture', async () => {
    const { out, seen } = paths();
    const io = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', out, '--', process.execPath, fakeProgram, seen, 'no-capture'], io)).toBe(1);
    expect(io.err()).toMatch(/no capture was written to .*: it loaded no CUDA driver, or the capture library did not start/);
  });

  it('refuses bad options before running anything (exit 2)', async () => {
    const { out, seen } = paths();
    const program = ['--', process.execPath, fakeProgram, seen];
    const taken = join(root, 'taken');
    mkdirSync(join(taken, 'launches'), { recursive: true });
    const takenByProcesses = join(root, 'taken-by-processes');
    mkdirSync(join(takenByProcesses, 'processes', '100'), { recursive: true });
    const cases: [string[], RegExp][] = [
      [['capture', '--library', library, ...program], /required option '-o, --out <dir>'/],
      [['capture', '--library', library, '-o', out], /missing required argument 'command'/],
      [['capture', '--kernel-name', 'regex:(gemm', '--library', library, '-o', out, ...program], /option '--kernel-name <name>' argument 'regex:\(gemm' is invalid\. "regex:\(gemm" cannot select kernels: C\+\+ std::regex/],
      // JavaScript accepts these; the capture library's std::regex does not, and would capture nothing.
      [['capture', '--kernel-name', 'regex:(?<=_)gemm', '--library', library, '-o', out, ...program], /"regex:\(\?<=_\)gemm" cannot select kernels: C\+\+ std::regex \(ECMAScript grammar\) cannot compile it: .+; it has no lookbehind .*named groups/],
      [['capture', '--kernel-name', 'regex:\\p{L}+gemm', '--library', library, '-o', out, ...program], /"regex:\\p\{L\}\+gemm" cannot select kernels/],
      [['capture', '--kernel-name', '', '--library', library, '-o', out, ...program], /"" cannot select kernels: it is empty/],
      [['capture', '--kernel-name', 'gemm', '--kernel-name-base', 'symbol', '--library', library, '-o', out, ...program], /--kernel-name-base <base>' argument 'symbol' is invalid\. Allowed choices are function, demangled, mangled/],
      [['capture', '--launch-skip', '-1', '--library', library, '-o', out, ...program], /--launch-skip/],
      [['capture', '--launch-count', '0', '--library', library, '-o', out, ...program], /--launch-count/],
      [['capture', '--staging-bytes', '4KiB', '--library', library, '-o', out, ...program], /--staging-bytes.*"4KiB" is less than one 64 KiB page/],
      [['capture', '--staging-bytes', 'lots', '--library', library, '-o', out, ...program], /--staging-bytes.*"lots" is not a byte size/],
      [['capture', '--writer-threads', '0', '--library', library, '-o', out, ...program], /--writer-threads.*"0" is not auto or a whole number from 1 to 64/],
      [['capture', '--writer-threads', '65', '--library', library, '-o', out, ...program], /--writer-threads.*"65" is not auto/],
      [['capture', '--library', library, '-o', taken, ...program], /--out .*taken already holds a capture/],
      [['capture', '--library', library, '-o', takenByProcesses, ...program], /--out .*taken-by-processes already holds a capture/],
      [['capture', '--library', library, '-o', join(root, 'missing-parent', 'capture'), ...program], /the directory .* does not exist/],
      [['capture', '--library', join(root, 'nowhere.so'), '-o', out, ...program], /--library .*nowhere\.so: no such file/],
      [['capture', '--library', library, '-o', out, '--', join(root, 'no-such-program')], /no-such-program cannot be run \(ENOENT\)/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo();
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.err(), args.join(' ')).toMatch(message);
    }
    expect(() => readFileSync(seen)).toThrow();
  });

  it('removes the folder it made for a program that cannot be started, and never a folder that was there before', async () => {
    const made = paths().out;
    const io = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', made, '--', join(root, 'no-such-program')], io)).toBe(2);
    expect(io.err()).toMatch(/no-such-program cannot be run \(ENOENT\)/);
    expect(existsSync(made)).toBe(false);
    const before = paths().out;
    mkdirSync(before);
    const notExecutable = join(root, 'not-executable.txt');
    writeFileSync(notExecutable, 'text\n');
    const again = recordingIo();
    expect(await runCli(['capture', '--library', library, '-o', before, '--', notExecutable], again)).toBe(2);
    expect(again.err()).toMatch(/not-executable\.txt cannot be run \(EACCES\)/);
    expect(readdirSync(before)).toEqual([]);
  });

  it("passes the program's stdout and stderr through (a spawned kreplay)", async () => {
    const { out, seen } = paths();
    const child = spawn(process.execPath, [binPath, 'capture', '--library', library, '-o', out, '--', process.execPath, fakeProgram, seen], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^fake program: stdout\ncaptured 3 launches/);
    expect(stderr).toContain('fake program: stderr\n');
  }, 60_000);
});
