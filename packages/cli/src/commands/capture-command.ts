import { existsSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { captureLibraryPath, KreplayError } from '@kreplay/native';
import { captureResultSchemaId, captureResultVersion } from '@kreplay/bench';
import type { KernelNameBase } from '@kreplay/native';
import type { CliIo } from '../cli-io.js';
import { describeByteSize, parseByteSize, parseNonNegativeInteger, parsePositiveInteger } from '../byte-size.js';
import {
  captureEnvironment,
  DEFAULT_STAGING_BYTES,
  describeSelection,
  MOST_WRITER_THREADS,
  SMALLEST_STAGING_BYTES,
  type CaptureSelection,
  type CaptureSettings,
} from '../capture-environment.js';
import type { CaptureSummary } from '../capture-summary.js';
import { describeCapturedProcesses, summarizeCapturedProcesses, type CapturedProcesses } from '../captured-processes.js';
import { watchCaptureProgress } from '../capture-progress.js';
import { kernelNameBaseOption, kernelNameHelp, parseKernelNameFilter } from '../kernel-name-option.js';
import { checkOutputPath } from '../output-path.js';
import { ProgramExitError } from '../program-exit-error.js';
import { runProgram, type ProgramExit } from '../run-program.js';
import { UsageError } from '../usage-error.js';

interface CaptureOptions {
  readonly kernelName?: string;
  readonly kernelNameBase: KernelNameBase;
  readonly launchSkip?: number;
  readonly launchCount?: number;
  readonly everyLaunch?: boolean;
  readonly profileFromStart: 'on' | 'off';
  readonly stagingBytes: number;
  readonly writerThreads: number | 'auto';
  readonly out: string;
  readonly library?: string;
  readonly json?: boolean;
}

/** What `kreplay capture --json` prints (`@kreplay/bench/schema/capture-result.schema.json`). */
export interface CaptureReport {
  readonly schema: typeof captureResultSchemaId;
  readonly schemaVersion: typeof captureResultVersion;
  /** How the program ended: its exit code, or the signal that ended it. */
  readonly program: { readonly command: readonly string[]; readonly exitCode: number | null; readonly signal: string | null };
  /** How the capture library worked inside the program. */
  readonly settings: CaptureSettings;
  /**
   * What the folder holds when one process captured into it; null when none did (the program loaded
   * no CUDA driver, or the library failed to start) or several did (see `processes`).
   */
  readonly capture: CaptureSummary | null;
  /** Each capturing process's capture (`<dir>/processes/<pid>`), by pid: one entry when one process captured. */
  readonly processes: readonly CaptureSummary[];
  /** Process folders that hold no readable capture, and why. */
  readonly unreadable: CapturedProcesses['unreadable'];
}

/**
 * `kreplay capture -o DIR -- program args...`: runs an unmodified CUDA program with the capture
 * library injected (CUDA_INJECTION64_PATH), passing its stdio through, then summarizes the capture
 * of each process that captured (`DIR/processes/<pid>`). Exits with the program's code (128 + the
 * signal when a signal ended it), or 2 when the library could not use the selection.
 */
export function captureCommand(io: CliIo): Command {
  return new Command('capture')
    .description('run a CUDA program and capture its kernel launches (module, parameters, memory before and after) into a folder')
    .argument('<command...>', 'the program and its arguments, after --')
    .option('--kernel-name <name>', `capture only these kernels: ${kernelNameHelp}`, parseKernelNameFilter)
    .addOption(kernelNameBaseOption('with --kernel-name'))
    .option('--launch-skip <n>', 'skip the first n matching launches (then capture every launch, as ncu)', parseNonNegativeInteger)
    .option('--launch-count <n>', 'capture at most n matching launches (then capture every launch, as ncu)', parsePositiveInteger)
    .option('--every-launch', 'capture every matching launch, not only the first of each kernel')
    .addOption(
      new Option('--profile-from-start <on|off>', 'off: consider only launches between cuProfilerStart and cuProfilerStop (torch.cuda.profiler.start/stop), as ncu')
        .choices(['on', 'off'])
        .default('on'),
    )
    .addOption(
      new Option(
        '--staging-bytes <size>',
        'pinned host memory the changed pages are copied through before each launch (e.g. 64MiB, at least 64 KiB); when the writer falls behind, the program waits for it',
      )
        .argParser(parseStagingBytes)
        .default(DEFAULT_STAGING_BYTES, describeByteSize(DEFAULT_STAGING_BYTES)),
    )
    .option('--writer-threads <n|auto>', `threads that name and write the captured pages (1 to ${MOST_WRITER_THREADS}; auto: min(8, CPUs - 1))`, parseWriterThreads, 'auto')
    .requiredOption('-o, --out <dir>', 'the capture folder to write (new, or empty)')
    .option('--library <path>', 'the capture library to inject (default: the one @kreplay/native built)')
    .option('--json', 'print one JSON object')
    .addHelpText('after', '\nExample:\n  kreplay capture --kernel-name regex:gemm -o gemm-capture -- python train.py --steps 1\n\nDefault selection: the first launch of each distinct kernel.')
    .action(async (command: string[], options: CaptureOptions) => {
      await checkCaptureFolder(options.out);
      const libraryPath = options.library ?? captureLibraryPath();
      if (!existsSync(libraryPath)) {
        if (options.library !== undefined) throw new UsageError('capture', `--library ${libraryPath}: no such file`, 'Pass the path of a built libkreplay-capture.so');
        throw new KreplayError({
          packageName: 'cli',
          component: 'capture',
          message: `[cli] [capture] the capture library ${libraryPath} is missing. Rebuild @kreplay/native (npm rebuild @kreplay/native), or pass --library.`,
        });
      }
      const settings: CaptureSettings = { stagingBytes: options.stagingBytes, writerThreads: options.writerThreads };
      const selection: CaptureSelection = {
        ...(options.kernelName !== undefined && { kernelName: options.kernelName, kernelNameBase: options.kernelNameBase }),
        ...(options.launchSkip !== undefined && { launchSkip: options.launchSkip }),
        ...(options.launchCount !== undefined && { launchCount: options.launchCount }),
        ...(options.everyLaunch === true && { everyLaunch: true }),
        ...(options.profileFromStart === 'off' && { profileFromStart: false }),
      };
      // The folder this command made (undefined when it was there before): removed again, while empty, if the program cannot start.
      const made = await mkdir(options.out, { recursive: true });
      if (process.env['CUDA_INJECTION64_PATH']) io.stderr(`kreplay capture: CUDA_INJECTION64_PATH was ${process.env['CUDA_INJECTION64_PATH']}; the program gets the capture library instead\n`);
      if (!options.json) io.stderr(`kreplay capture: ${command.join(' ')}: capturing ${describeSelection(selection)} into ${options.out}\n`);
      using progress = watchCaptureProgress(io, options.out);
      const exit = await runProgram(command, captureEnvironment(process.env, { libraryPath, directory: options.out, command, selection, settings })).catch(async (error: NodeJS.ErrnoException) => {
        if (made !== undefined) await rmdir(made).catch(() => undefined);
        throw new UsageError('capture', `${command[0]} cannot be run (${error.code ?? error.message})`, 'Pass a program on PATH or its path, after --');
      });
      const captured = await summarizeCapturedProcesses(options.out);
      const { captures, unreadable } = captured;
      const capture = captures.length === 1 && unreadable.length === 0 ? captures[0]! : null;
      const report: CaptureReport = { schema: captureResultSchemaId, schemaVersion: captureResultVersion, program: { command, exitCode: exit.code, signal: exit.signal }, settings, capture, processes: captures, unreadable };
      if (options.json) io.stdout(`${JSON.stringify(report)}\n`);
      else if (captures.length + unreadable.length > 0) io.stdout(describeCapturedProcesses(captured, options.out));
      const failure = programFailure(exit, captures, options.out);
      if (failure !== undefined) throw failure;
    });
}

/** --staging-bytes: a byte size of at least one 64 KiB page. */
function parseStagingBytes(text: string): number {
  const bytes = parseByteSize(text);
  if (bytes < SMALLEST_STAGING_BYTES) throw new InvalidArgumentError(`"${text}" is less than one 64 KiB page; write at least 64KiB.`);
  return bytes;
}

/** --writer-threads: `auto` or a whole number from 1 to 64. */
function parseWriterThreads(text: string): number | 'auto' {
  if (text.trim() === 'auto') return 'auto';
  const threads = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || threads < 1 || threads > MOST_WRITER_THREADS) {
    throw new InvalidArgumentError(`"${text}" is not auto or a whole number from 1 to ${MOST_WRITER_THREADS}.`);
  }
  return threads;
}

/**
 * The CLI's failure after the program ran: its own failure (with its code), a selection the
 * library could not use (exit 2), or no capture at all.
 */
function programFailure(exit: ProgramExit, captures: readonly CaptureSummary[], out: string): KreplayError | undefined {
  const how = exit.signal === null ? `exited with ${exit.code}` : `was ended by ${exit.signal}`;
  const launches = captures.reduce((sum, capture) => sum + capture.launches, 0);
  const by = captures.length > 1 ? ` by ${captures.length} processes` : '';
  const kept =
    captures.length === 0
      ? 'No capture was written'
      : `${out} holds the ${launches} launch${launches === 1 ? '' : 'es'} captured before${by} (readable: a launch is complete or absent)`;
  if (exit.shellCode !== 0) return new ProgramExitError('capture', exit.shellCode, `the program ${how}`, kept);
  const unselected = captures.find((capture) => capture.selectionError !== null);
  if (unselected !== undefined) {
    const where = unselected.pid === null ? '' : ` in process ${unselected.pid}`;
    return new UsageError('capture', `the capture library selected nothing${where}: ${unselected.selectionError!.replace(/\.$/, '')}`, 'Nothing was captured; capture again with a pattern it can compile');
  }
  if (captures.length > 0) return undefined;
  return new KreplayError({
    packageName: 'cli',
    component: 'capture',
    message: `[cli] [capture] the program ran, but no capture was written to ${out}: it loaded no CUDA driver, or the capture library did not start (see its [kreplay capture] messages above). Check that the program uses the GPU, and that nothing else sets CUDA_INJECTION64_PATH.`,
  });
}

/** -o must be a folder that can be written and holds no capture yet (of its own, or of processes). */
async function checkCaptureFolder(out: string): Promise<void> {
  await checkOutputPath(out, { kind: 'directory', command: 'capture', option: '--out' });
  if (['manifest.json', 'launches', 'processes'].some((name) => existsSync(join(out, name)))) {
    throw new UsageError('capture', `--out ${out} already holds a capture`, 'Choose a new folder, or remove it first');
  }
}
