import { resolve } from 'node:path';
import { KreplayError } from '@kreplay/native';
import { defaultSlurmTools, formatDeviceComparison, renderDeviceComparisonHtml, runSlurmBench, writeReportFile } from '@kreplay/bench';
import type { DeviceComparison } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { InterruptedError } from '../interrupted-error.js';
import { listenForInterrupt } from '../interrupt-signal.js';
import { checkOutputPath, checkOutputPaths } from '../output-path.js';
import { createProgress } from '../progress.js';
import type { StopSignal } from '../stop-signal.js';
import { defaultSlurmBundleDirectory } from '../slurm-bundle.js';
import { writeThenPrint } from '../write-then-print.js';
import type { Progress } from '../progress.js';

/** The options of `kreplay bench --slurm`. */
export interface SlurmBenchOptions {
  readonly preset: string;
  readonly driver: string;
  /** Host driver options, passed on to every node's bench. */
  readonly agents?: number;
  readonly deviceMemory?: number;
  readonly out: string;
  readonly html?: string;
  readonly json?: boolean;
  readonly partition: readonly string[];
  readonly nodes: number;
  readonly bundle?: string;
  readonly nodeExecutable: string;
  readonly timeLimit?: string;
}

/** What every node's `kreplay bench` is given: the preset and the runtime options (its --out comes per task). */
export function slurmBenchArguments(options: Pick<SlurmBenchOptions, 'preset' | 'driver' | 'agents' | 'deviceMemory'>): string[] {
  return [
    ...['--preset', options.preset, '--driver', options.driver],
    ...(options.agents === undefined ? [] : ['--agents', String(options.agents)]),
    ...(options.deviceMemory === undefined ? [] : ['--device-memory', String(options.deviceMemory)]),
  ];
}

/**
 * Submits the preset as Slurm job arrays, waits (with progress; Ctrl-C or SIGTERM stops waiting and
 * merges what arrived), and writes the by-device comparison as JSON (and HTML), then prints it. A
 * comparison that holds nothing (no report arrived, or none held a fitted configuration) is never
 * written: it would replace an earlier one.
 * @throws UsageError when an output path cannot be written (before submitting); SlurmError when
 * submitting fails; InterruptedError after Ctrl-C or SIGTERM, KreplayError when some reports never
 * arrived (both after writing what did, if anything); KreplayError, or InterruptedError after a
 * signal, when the comparison holds nothing (nothing written).
 */
export async function runSlurmBenchAction(io: CliIo, options: SlurmBenchOptions): Promise<void> {
  const out = resolve(options.out);
  const tasksDirectory = `${out}.tasks`;
  await checkOutputPaths('bench', { '--out': options.out, '--html': options.html });
  await checkOutputPath(tasksDirectory, { kind: 'directory', command: 'bench', option: '--out (its task folder)' });
  using interruption = listenForInterrupt(io, 'merging the reports that arrived so far');
  let progress: Progress | undefined;
  const { arrays, comparison } = await runSlurmBench(
    {
      benchArguments: slurmBenchArguments(options),
      nodes: options.nodes,
      partitions: options.partition,
      outDirectory: tasksDirectory,
      bundleDirectory: defaultSlurmBundleDirectory(options.bundle, tasksDirectory),
      nodeExecutable: options.nodeExecutable,
      ...(options.timeLimit !== undefined && { timeLimit: options.timeLimit }),
    },
    defaultSlurmTools,
    {
      signal: interruption.signal,
      onSubmitted: (submitted) =>
        io.stderr(`kreplay: submitted job array(s) ${submitted.map((array) => array.jobId).join(', ')}; reports go to ${tasksDirectory}\n`),
      onProgress: (finished, total) => (progress ??= createProgress(io, { label: 'bench --slurm', total, unit: 'tasks' })).update(finished),
    },
  ).finally(() => progress?.done());
  const taskCount = arrays.reduce((sum, array) => sum + array.tasks, 0);
  if (comparison.rows.length === 0) throw nothingToCompare(comparison, { out, tasksDirectory, taskCount, signal: interruption.received });
  const write = async () => {
    await writeReportFile(out, `${JSON.stringify(comparison, null, 2)}\n`);
    if (options.html !== undefined) await writeReportFile(options.html, renderDeviceComparisonHtml(comparison));
  };
  await writeThenPrint(io, write, options.json ? `${JSON.stringify(comparison)}\n` : formatDeviceComparison(comparison));
  if (!comparison.complete) {
    const arrived = comparison.devices.reduce((sum, device) => sum + device.sources.length, 0);
    const signal = interruption.received;
    if (signal !== undefined) {
      throw new InterruptedError('bench', `stopped waiting; ${out} holds the ${arrived} report(s) that arrived, marked incomplete (the jobs keep running)`, `Merge all of them later with kreplay compare --by-device on the reports in ${tasksDirectory}`, signal);
    }
    const message = `[cli] [bench] ${comparison.missing.length} of ${taskCount} report(s) did not arrive (first: ${comparison.missing[0] ?? 'an interrupted report'}); ${out} holds the ${arrived} that did, marked incomplete. Look at the task logs in ${tasksDirectory}.`;
    throw new KreplayError({ packageName: 'cli', component: 'bench', message });
  }
}

/**
 * Why a Slurm bench writes no comparison: no report arrived, or none held a fitted configuration, so
 * the comparison would hold nothing and replace what `out` held. After a signal, an InterruptedError.
 */
export function nothingToCompare(
  comparison: DeviceComparison,
  where: { readonly out: string; readonly tasksDirectory: string; readonly taskCount: number; readonly signal: StopSignal | undefined },
): KreplayError {
  const arrived = comparison.devices.reduce((sum, device) => sum + device.sources.length, 0);
  const notWritten = `${where.out} was not written (what it held is kept)`;
  if (where.signal !== undefined) {
    return new InterruptedError('bench', `stopped waiting before any report with a measurement arrived (${arrived} of ${where.taskCount}), so ${notWritten}; the jobs keep running`, `Merge their reports later with kreplay compare --by-device on the reports in ${where.tasksDirectory}`, where.signal);
  }
  const why =
    arrived === 0
      ? `none of the ${where.taskCount} report(s) arrived (first: ${comparison.missing[0] ?? 'no task ran'})`
      : `the ${arrived} report(s) that arrived measured no fitted configuration${comparison.missing.length > 0 ? `, and ${comparison.missing.length} did not arrive (first: ${comparison.missing[0]})` : ''}`;
  return new KreplayError({ packageName: 'cli', component: 'bench', message: `[cli] [bench] measured nothing to compare: ${why}, so ${notWritten}. Look at the task logs in ${where.tasksDirectory}, fix what they say, then run kreplay bench --slurm again.` });
}
