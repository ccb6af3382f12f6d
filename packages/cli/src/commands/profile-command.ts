import { Command, InvalidArgumentError, Option } from 'commander';
import { openRuntime } from '@kreplay/native';
import type { CaptureFolder, DriverChoice, ProfilerCacheControl, ProfilerRange } from '@kreplay/native';
import { formatBytes, strategyByName, strategyNames } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import type { CliIo } from '../cli-io.js';
import { describeByteSize, parseByteSize, parseFraction, parseNonNegativeInteger, parsePositiveInteger, parseShare } from '../byte-size.js';
import { driverOption } from '../driver-option.js';
import { wasGiven } from '../option-dependencies.js';
import { createProfileWorkload, parseDeclaredArgument, parseDimensions, planProfileWorkload } from '../profile-workload.js';
import type { DeclaredArgument, ProfileWorkload, ProfileWorkloadPlan } from '../profile-workload.js';
import { profileDispatches, type ProfileRange, type ProfileRow } from '../profile-dispatches.js';
import { captureProfileStrategy, captureSamples, captureWarmRuns, profileCapture } from '../profile-capture.js';
import { captureRangeCap, describeSequences, type CaptureRangeChoice } from '../capture-ranges.js';
import { capturedLaunchSelectionFlags, selectCapturedLaunches, withCapturedLaunchSelection, type CapturedLaunchSelection } from '../captured-launch-selection.js';
import { createProgress } from '../progress.js';
import { UsageError } from '../usage-error.js';

interface ProfileOptions {
  readonly driver: DriverChoice;
  readonly metrics: string;
  /** Dispatches per range, `auto` (capture: whole captured sequences), or the old spelling of --measure; absent: the workload's default. */
  readonly range?: CaptureRangeChoice | ProfilerRange;
  readonly measure: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  /** Unprofiled runs of each dispatch before its passes; absent: the workload's default. */
  readonly warmRuns?: number;
  /** Times each captured launch is profiled (its metrics' medians reported); absent: {@link captureSamples}. */
  readonly samples?: number;
  readonly dispatches: number;
  readonly footprint: number;
  readonly writeFraction: number;
  readonly inputShare: number;
  readonly arg?: DeclaredArgument[];
  readonly args?: string;
  readonly grid?: [number, number, number];
  readonly block?: [number, number, number];
  readonly json?: boolean;
}

type ProfileCommandOptions = ProfileOptions & CapturedLaunchSelection;

export type { ProfileRange, ProfileRow } from '../profile-dispatches.js';

/** What `kreplay profile --json` prints. */
export interface ProfileReport {
  readonly driver: string;
  readonly device: string;
  readonly chip: string;
  readonly workload: string;
  readonly strategy: string;
  /** What each pass measured: the dispatch's kernel, or a range pushed around the dispatch. */
  readonly measure: ProfilerRange;
  /** Whether the L2 was flushed before every dispatch of a range (`all`) or only before each pass (`none`). */
  readonly cacheControl: ProfilerCacheControl;
  /** Dispatches per range (1: one dispatch at a time); for `capture:`, `auto` or launches per range of a captured sequence. */
  readonly range: CaptureRangeChoice;
  /** CUPTI's passes per dispatch (in a range: per run of the whole sequence). */
  readonly passes: number;
  /** Unprofiled runs of each dispatch (or range) before its passes. */
  readonly warmRuns: number;
  /** Times each dispatch was profiled, all its passes each time; its metrics are their medians. */
  readonly samples: number;
  readonly metrics: readonly string[];
  readonly units: Readonly<Record<string, string>>;
  /** Host milliseconds to load CUPTI and plan the metrics. */
  readonly setupMs: number;
  /** Host milliseconds from the first dispatch to the last one's results. */
  readonly wallMs: number;
  readonly dispatches: readonly ProfileRow[];
  /** Each range of more than one dispatch, in order; empty with --range 1. */
  readonly ranges: readonly ProfileRange[];
  /** `capture:`: what the captured sequences' reader said (a version 1 capture, a launch whose predecessor is not there). */
  readonly notes?: readonly string[];
}

/** Parses --range: dispatches per range, `auto` (capture:), or `kernel` / `dispatch` (the spelling of --measure before ranges). */
function parseRange(text: string): CaptureRangeChoice | ProfilerRange {
  if (text === 'kernel' || text === 'dispatch' || text === 'auto') return text;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) {
    throw new InvalidArgumentError(`"${text}" is not a whole number of dispatches per range >= 1, or auto (or kernel, dispatch: use --measure for those).`);
  }
  return Number(text);
}

/** Dispatches per range of a generated workload (`kernel` and `dispatch` are --measure's old spelling). */
function workloadRange(range: ProfileOptions['range']): number {
  if (range === 'auto') throw new UsageError('profile', '--range auto replays the captured sequences of a capture, and the workload is not one', 'Pass --range K (dispatches per range), or profile capture:<dir>');
  return typeof range === 'number' ? range : 1;
}

/** `kreplay profile`: hardware counters of a dispatch on NVIDIA (CUPTI, user replay through the engine). */
export function profileCommand(io: CliIo): Command {
  const command = new Command('profile')
    .description('collect CUPTI metrics per dispatch on NVIDIA, replaying each dispatch once per pass CUPTI needs')
    .argument('[workload]', 'scatter (default), ptx:<file>:<kernel>, or capture:<dir> (every launch of a kreplay capture folder)', 'scatter')
    .requiredOption('--metrics <a,b,c>', 'CUPTI metric names, comma separated')
    .addOption(driverOption().default('cuda' as DriverChoice))
    .option(
      '--range <K>',
      `replay ranges of K consecutive dispatches as one unit each, one CUPTI range per dispatch, all K in each pass (1: one dispatch at a time; default 1); capture: auto (whole captured sequences, up to ${captureRangeCap} launches; the default on a capture of format version 2) or K launches of a captured sequence`,
      parseRange,
    )
    .addOption(new Option('--measure <what>', "what each dispatch's counters cover: its kernel (as ncu does) or a range pushed around the dispatch").choices(['kernel', 'dispatch']).default('kernel'))
    .addOption(new Option('--cache-control <mode>', 'in a range: flush the L2 before every dispatch (all, as ncu) or only before each pass (none)').choices(['all', 'none']).default('all'))
    .addOption(new Option('--strategy <name>', `snapshot strategy restoring memory between passes (capture:: ${captureProfileStrategy} unless given; full restores by copy engines)`).choices(strategyNames).default('dirty-pages'))
    .addOption(new Option('--tier <tier>', 'staging tier').choices(['auto', 'device', 'host-pinned', 'host-pageable']).default('auto'))
    .option('--warm-runs <n>', `unprofiled runs of each dispatch before its passes, so that a kernel's first-launch costs are not measured (default: ${captureWarmRuns} for capture:, 0 otherwise)`, parseNonNegativeInteger)
    .option('--samples <n>', `capture: times each launch is profiled, each time from its captured memory, reporting each metric's median (default: ${captureSamples})`, parsePositiveInteger)
    .option('--dispatches <n>', 'dispatches to profile', parsePositiveInteger, 1)
    .addOption(new Option('--footprint <bytes>', 'scatter: device memory the workload holds').argParser(parseByteSize).default(2 ** 30, describeByteSize(2 ** 30)))
    .option('--write-fraction <f>', "scatter: fraction of the footprint's pages each dispatch writes", parseFraction, 0.25)
    .option('--input-share <f>', 'scatter: share of the footprint the kernel reads (0: one kernel per dispatch)', parseShare, 0)
    .option('--arg <name=type:access:value>', 'ptx: a declared argument, in order (a pointer value is the bytes to allocate)', (text: string, previous?: DeclaredArgument[]) => parseDeclaredArgument(text, previous))
    .option('--args <file.json>', 'ptx: declared arguments from a JSON file [{ name, type, access?, value }]')
    .option('--grid <x,y,z>', 'ptx: grid dimensions', parseDimensions)
    .option('--block <x,y,z>', 'ptx: block dimensions', parseDimensions)
    .option('--json', 'print one JSON object');
  return withCapturedLaunchSelection(command, 'capture:')
    .action(async (workloadSpec: string, options: ProfileCommandOptions, command: Command) => {
      // Everything the user gave is checked before the driver opens (which may fail for its own reasons).
      const metrics = options.metrics.split(',').map((metric) => metric.trim()).filter((metric) => metric !== '');
      if (metrics.length === 0) throw new UsageError('profile', `--metrics names no metric ("${options.metrics}")`, 'Pass CUPTI metric names separated by commas, e.g. --metrics gpu__time_duration.sum');
      const plan = await planProfileWorkload(workloadSpec, options, (flag) => wasGiven(command, flag));
      if (plan.kind !== 'capture') workloadRange(options.range);
      if (plan.kind === 'capture' && options.driver !== 'cuda') {
        throw new UsageError('profile', `a capture is replayed on the cuda driver, not --driver ${options.driver}`, 'Leave out --driver');
      }
      const selecting = capturedLaunchSelectionFlags.find((flag) => wasGiven(command, flag));
      if (plan.kind !== 'capture' && options.samples !== undefined) {
        throw new UsageError('profile', `--samples applies to capture:, whose launches start each sample from their captured memory, and the workload is ${workloadSpec}`, 'Leave out --samples, or profile a capture');
      }
      if (plan.kind !== 'capture' && selecting !== undefined) throw new UsageError('profile', `${selecting} selects launches of a capture, and the workload is ${workloadSpec}`, `Profile capture:<dir>, or leave out ${selecting}`);
      const report =
        plan.kind === 'capture'
          ? await profileCaptureReport(workloadSpec, selectCapturedLaunches(plan.folder, options, 'profile'), metrics, { ...options, strategy: wasGiven(command, '--strategy') ? options.strategy : captureProfileStrategy }, io)
          : await profile(plan, metrics, options, io);
      io.stdout(options.json ? `${JSON.stringify(report)}\n` : describeProfile(report));
    });
}

async function profileCaptureReport(spec: string, folder: CaptureFolder, metrics: readonly string[], options: ProfileOptions, io: CliIo): Promise<ProfileReport> {
  const measure = options.range === 'kernel' || options.range === 'dispatch' ? options.range : options.measure;
  const range = typeof options.range === 'number' || options.range === 'auto' ? options.range : undefined;
  const progress = createProgress(io, { label: 'profile', total: folder.launches.length, unit: 'launches' });
  const profiled = await profileCapture(folder, {
    metrics,
    measure,
    cacheControl: options.cacheControl,
    strategy: options.strategy,
    tier: options.tier,
    ...(options.warmRuns === undefined ? {} : { warmRuns: options.warmRuns }),
    ...(options.samples === undefined ? {} : { samples: options.samples }),
    ...(range === undefined ? {} : { range }),
    restoreByCopyEngines: options.strategy === 'full',
    onLaunch: (done) => progress.update(done),
  }).finally(() => progress.done());
  return {
    driver: profiled.driver,
    device: profiled.device,
    chip: profiled.chip,
    workload: `${spec} (${folder.launches.length} launches)`,
    strategy: profiled.strategy,
    measure: profiled.measure,
    cacheControl: profiled.cacheControl,
    range: profiled.range,
    passes: profiled.passes,
    warmRuns: profiled.warmRuns,
    samples: profiled.samples,
    metrics,
    units: profiled.units,
    setupMs: profiled.setupMs,
    wallMs: profiled.wallMs,
    dispatches: profiled.rows,
    ranges: profiled.ranges,
    notes: profiled.notes,
  };
}

async function profile(plan: Exclude<ProfileWorkloadPlan, { readonly kind: 'capture' }>, metrics: readonly string[], options: ProfileOptions, io: CliIo): Promise<ProfileReport> {
  // `--range kernel|dispatch` is the spelling of --measure from before ranges.
  const measure = options.range === 'kernel' || options.range === 'dispatch' ? options.range : options.measure;
  const rangeLength = workloadRange(options.range);
  await using runtime = await openRuntime({ driver: options.driver });
  const agent = runtime.agents[0]!;
  const started = performance.now();
  const warmRuns = options.warmRuns ?? 0;
  const passes = await cuptiPasses({ runtime, metrics, agentIds: [agent.id], range: measure, cacheControl: options.cacheControl, warmRuns });
  const setupMs = performance.now() - started;
  const session = passes.sessions.get(agent.id)!;
  let workload: ProfileWorkload | undefined;
  try {
    // Disposed in reverse order at the end of this block, on every path, before the finally below.
    using tracker = createTracker(runtime);
    using staging = createStaging(runtime, tracker);
    using strategy = strategyByName(options.strategy, { tier: options.tier });
    await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes });
    await using queue = agent.createQueue();
    workload = await createProfileWorkload(agent, plan);
    const progress = createProgress(io, { label: 'profile', total: options.dispatches, unit: 'dispatches' });
    const profiledAt = performance.now();
    const { rows, ranges } = await profileDispatches(engine, queue, workload, {
      dispatches: options.dispatches,
      range: rangeLength,
      onProgress: (done) => progress.update(done),
    }).finally(() => progress.done());
    const wallMs = performance.now() - profiledAt;
    return {
      driver: runtime.driver,
      device: agent.info.name,
      chip: session.plan.chip,
      workload: workload.description,
      strategy: strategy.name,
      measure: session.range,
      cacheControl: session.cacheControl,
      range: rangeLength,
      passes: session.passCount,
      warmRuns,
      samples: 1,
      metrics,
      units: Object.fromEntries(metrics.map((metric, index) => [metric, session.plan.units[index] ?? ''])),
      setupMs,
      wallMs,
      dispatches: rows,
      ranges,
    };
  } finally {
    workload?.free();
    await passes.dispose();
  }
}

function formatValue(value: number, unit: string): string {
  if (unit === 'nanosecond') return `${(value / 1000).toFixed(3)} us`;
  if (unit === 'percent') return `${value.toFixed(2)} %`;
  if (Math.abs(value) >= 1e6) return `${value.toExponential(4)} ${unit}`;
  return `${Number(value.toFixed(4))} ${unit}`;
}

/** The terminal form of a profile report: one block per dispatch. */
export function describeProfile(report: ProfileReport): string {
  const width = Math.max(...report.metrics.map((metric) => metric.length));
  const ranged =
    report.range === 'auto'
      ? `, ranges of whole captured sequences (cache control ${report.cacheControl})`
      : report.range > 1
        ? `, ranges of ${report.range} ${report.workload.startsWith('capture:') ? 'launches' : 'dispatches'} (cache control ${report.cacheControl})`
        : '';
  const warm = report.warmRuns > 0 ? ` after ${report.warmRuns} unprofiled run${report.warmRuns === 1 ? '' : 's'}` : '';
  const sampled = report.samples > 1 ? `, medians of ${report.samples} samples` : '';
  const perKernel = report.dispatches.length > 0 ? `; ${(report.wallMs / report.dispatches.length).toFixed(2)} ms per dispatch` : '';
  const lines = [
    `${report.device} (${report.chip}), ${report.workload}; ${report.passes} pass${report.passes === 1 ? '' : 'es'} per dispatch${warm}${sampled}, strategy ${report.strategy}, ${report.measure} measured${ranged}; CUPTI setup ${report.setupMs.toFixed(1)} ms${perKernel}`,
  ];
  for (const note of report.notes ?? []) lines.push(`note: ${note}`);
  report.ranges.forEach((range, index) => {
    const which = range.launches === undefined ? `of dispatches ${range.first}-${range.first + range.dispatches - 1}` : `${index}: launches ${describeSequences(range.launches)} (${range.dispatches})`;
    const before = range.bytesBefore === undefined ? '' : `, ${formatBytes(range.bytesBefore)} copied before launches`;
    lines.push(
      `range ${which}: ${range.passes} passes, ${range.wallMs.toFixed(2)} ms wall (${range.wallMsPerDispatch.toFixed(2)} ms per ${range.launches === undefined ? 'dispatch' : 'launch'}), ${formatBytes(range.bytesCopied)} restored${before}${range.replayed ? '' : ' (not replayed)'}`,
    );
    if (range.declineReason) lines.push(`  declined: ${range.declineReason}`);
    if (range.error) lines.push(`  error: ${range.error}`);
  });
  for (const row of report.dispatches) {
    const where = row.range === null ? `${row.wallMs.toFixed(2)} ms wall, ${formatBytes(row.bytesCopied)} copied` : `in range ${row.range}`;
    lines.push(`${row.kernel === undefined ? 'dispatch' : 'launch'} ${row.dispatch}${row.kernel === undefined ? '' : ` ${row.kernel}`}: ${row.passes} passes, ${where}${row.replayed ? '' : ' (not replayed)'}`);
    if (row.declineReason) lines.push(`  declined: ${row.declineReason}`);
    if (row.error) lines.push(`  error: ${row.error}`);
    for (const metric of report.metrics) {
      const value = row.metrics?.[metric];
      lines.push(`  ${metric.padEnd(width)}  ${value === undefined ? '-' : formatValue(value, report.units[metric] ?? '')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
