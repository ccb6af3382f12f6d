import { Command, InvalidArgumentError, Option } from 'commander';
import { DriverUnavailableError, KreplayError, openRuntime } from '@kreplay/native';
import type { CaptureFolder, DriverChoice, KernelDescriptor, ProfilerCacheControl, ProfilerRange } from '@kreplay/native';
import { profileReportSchemaId, profileReportVersion, strategyByName, strategyNames } from '@kreplay/bench';
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
import { capturedLaunchFailure } from '../captured-launch-failure.js';
import { captureProfileStrategy, captureSamples, captureWarmRuns, profileCapture } from '../profile-capture.js';
import { captureRangeCap, type CaptureRangeChoice } from '../capture-ranges.js';
import { defaultGraphProfiling, graphNodeOf, graphProfilingHelp, parseGraphProfiling, type GraphProfiling } from '../graph-profiling.js';
import { capturedLaunchSelectionFlags, selectCapturedLaunches, withCapturedLaunchSelection, type CapturedLaunchSelection } from '../captured-launch-selection.js';
import { conditionFlags, conditionsFromFlags, type ConditionFlags } from '../profile-condition-flags.js';
import { withLaunchShapes } from '../profile-launch-shapes.js';
import { withCapturedLaunches } from '../profile-launch.js';
import { createProgress } from '../progress.js';
import { UsageError } from '../usage-error.js';
import { collectValues } from '../repeatable-option.js';
import { checkJsonOutput, withJsonOutput, writeJsonThenPrint, type JsonOutputOptions } from '../json-output-file.js';
import { chooseMetrics, resolveMetricChoice, type MetricChoice, type MetricChoiceOptions } from '../profile-metric-choice.js';
import { describeProfile, launchName, notProfiled, type PrintUnits, type ProfilePage } from '../profile-details-page.js';
import { profileCsv } from '../profile-csv.js';
import { describeQueriedMetrics, describeSectionList, describeSetList, queriedMetricsJson, queryMetrics, sectionListJson, type QueryMetricsMode } from '../profile-listing.js';
import { sectionSetNames } from '../sections/sections.js';

interface ProfileOptions extends MetricChoiceOptions, JsonOutputOptions {
  readonly driver: DriverChoice;
  /** Dispatches per range, `auto` (capture: whole captured sequences), or the old spelling of --measure; absent: the workload's default. */
  readonly range?: CaptureRangeChoice | ProfilerRange;
  /** capture: only: kernel nodes of captured graph launches each a result (`node`), or each graph launch one (`graph`). */
  readonly graphProfiling?: GraphProfiling;
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
  readonly csv?: boolean;
  readonly page: ProfilePage;
  /** ncu's --print-units; absent: scaled on the details page, base units in CSV (as ncu 2025.3 prints them). */
  readonly printUnits?: PrintUnits;
  readonly listSections?: boolean;
  readonly listSets?: boolean;
  readonly queryMetrics?: boolean;
  readonly queryMetricsMode: QueryMetricsMode;
  readonly chip?: string;
}

type ProfileCommandOptions = ProfileOptions & ConditionFlags & CapturedLaunchSelection;

export type { ProfileRange, ProfileRow } from '../profile-dispatches.js';

/** The schema fields every profile starts with: its JSON Schema (`@kreplay/bench`'s profile-report.schema.json) and version. */
const profileSchemaFields = { schema: profileReportSchemaId, schemaVersion: profileReportVersion } as const;

export type { ProfileReport } from '../profile-report.js';
import type { ProfileReport } from '../profile-report.js';

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
  const conditions = conditionFlags();
  const command = new Command('profile')
    .description('collect CUPTI metrics per dispatch on NVIDIA, replaying each dispatch once per pass CUPTI needs')
    .argument('[workload]', 'scatter (default), ptx:<file>:<kernel>, or capture:<dir> (every launch of a kreplay capture folder)', 'scatter')
    .option('--section <identifier>', "collect one of ncu's sections (repeatable; regex:EXPRESSION names every section it matches); --list-sections lists them", collectValues)
    .addOption(new Option('--set <name>', "collect ncu's set of sections (basic when neither --section, --set nor --metrics is given)").choices([...sectionSetNames]))
    .option('--metrics <a,b,c>', 'CUPTI metric names, comma separated (alone, or besides --section and --set)')
    .option('--list-sections', 'list the sections --section knows, and those of ncu it leaves out')
    .option('--list-sets', 'list the sets --set knows and their sections')
    .option('--query-metrics', "list the metrics this device's chip supports, with units and descriptions (CUPTI's host API)")
    .addOption(new Option('--query-metrics-mode <mode>', 'with --query-metrics: base metrics, the suffixes of the --metrics named, or every metric with its suffixes').choices(['base', 'suffix', 'all']).default('base'))
    .option('--chip <name>', "with --query-metrics: list the metrics of this chip (e.g. GH100) rather than the device's; needs no GPU")
    .option('--csv', "print CSV with the columns of ncu's --csv (--page details: one row per metric; raw: one row per launch)")
    .addOption(new Option('--page <page>', "ncu's page: each section's table (details) or every metric (raw)").choices(['details', 'raw']).default('details'))
    .addOption(new Option('--print-units <units>', 'scale values as ncu does (auto) or keep base units (default: auto for tables, base for --csv, as ncu)').choices(['auto', 'base']))
    .addOption(driverOption('cuda: the only driver with counters (CUPTI)').default('cuda' as DriverChoice))
    .option(
      '--range <K>',
      `replay ranges of K consecutive dispatches as one unit each, one CUPTI range per dispatch, all K in each pass (1: one dispatch at a time; default 1); capture: auto (whole captured sequences, up to ${captureRangeCap} launches; the default on a capture of format version 2) or K launches of a captured sequence`,
      parseRange,
    )
    .option('--graph-profiling <mode>', `capture: ${graphProfilingHelp}; graph measures each graph launch with --measure dispatch (default: ${defaultGraphProfiling})`, parseGraphProfiling)
    .addOption(new Option('--measure <what>', "what each dispatch's counters cover: its kernel (as ncu does) or a range pushed around the dispatch").choices(['kernel', 'dispatch']).default('kernel'))
    .addOption(new Option('--cache-control <mode>', 'in a range: flush the L2 before every dispatch (all, as ncu) or only before each pass (none)').choices(['all', 'none']).default('all'))
    .addOption(conditions.l2Flush)
    .addOption(conditions.instructionCache)
    .addOption(new Option('--strategy <name>', `snapshot strategy restoring memory between passes (capture:: ${captureProfileStrategy} unless given)`).choices(strategyNames).default('dirty-pages'))
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
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  kreplay profile --section SpeedOfLight capture:step\n  kreplay profile --set full --csv --page raw -o step.json capture:step\n  kreplay profile --query-metrics --chip GH100\n\nWith neither --section, --set nor --metrics: the set basic, as ncu.',
    );
  return withCapturedLaunchSelection(withJsonOutput(command), 'capture:')
    .action(async (workloadSpec: string, options: ProfileCommandOptions, command: Command) => {
      if (options.listSections || options.listSets) {
        io.stdout(options.json ? sectionListJson() : options.listSections ? describeSectionList() : describeSetList());
        return;
      }
      if (options.queryMetrics) {
        const commandLine = options.metrics?.split(',').map((metric) => metric.trim()).filter((metric) => metric !== '') ?? [];
        const queried = await queryMetrics({ ...(options.chip !== undefined && { chip: options.chip }), mode: options.queryMetricsMode, metrics: commandLine });
        io.stdout(options.json ? queriedMetricsJson(queried) : describeQueriedMetrics(queried));
        return;
      }
      const queryOnly = ['--chip', '--query-metrics-mode'].find((flag) => wasGiven(command, flag));
      if (queryOnly !== undefined) throw new UsageError('profile', `${queryOnly} applies to --query-metrics, which is not given`, `Add --query-metrics to list metrics, or leave out ${queryOnly}`);
      // Everything the user gave is checked before the driver opens (which may fail for its own reasons).
      if (options.json && options.csv) throw new UsageError('profile', '--json and --csv both choose what is printed', 'Pass one of them (-o FILE writes the JSON besides --csv)');
      const choice = chooseMetrics(options);
      const plan = await planProfileWorkload(workloadSpec, options, (flag) => wasGiven(command, flag));
      if (plan.kind !== 'capture') workloadRange(options.range);
      if (plan.kind === 'capture' && options.driver !== 'cuda') {
        throw new UsageError('profile', `a capture is replayed on the cuda driver, not --driver ${options.driver}`, 'Leave out --driver');
      }
      const selecting = capturedLaunchSelectionFlags.find((flag) => wasGiven(command, flag));
      if (plan.kind !== 'capture' && options.samples !== undefined) {
        throw new UsageError('profile', `--samples applies to capture:, whose launches start each sample from their captured memory, and the workload is ${workloadSpec}`, 'Leave out --samples, or profile a capture');
      }
      if (plan.kind !== 'capture' && options.graphProfiling !== undefined) {
        throw new UsageError('profile', `--graph-profiling says how kernels captured inside CUDA graph launches are profiled, and the workload is ${workloadSpec}`, 'Profile capture:<dir>, or leave out --graph-profiling');
      }
      if (options.graphProfiling === 'graph' && (wasGiven(command, '--measure') && options.measure === 'kernel' || options.range === 'kernel')) {
        throw new UsageError('profile', '--graph-profiling graph measures each captured graph launch as one workload, and --measure kernel measures each kernel alone', 'Leave out --measure (graph profiling measures with --measure dispatch)');
      }
      if (plan.kind !== 'capture' && selecting !== undefined) throw new UsageError('profile', `${selecting} selects launches of a capture, and the workload is ${workloadSpec}`, `Profile capture:<dir>, or leave out ${selecting}`);
      await checkJsonOutput('profile', options, { '<workload>': plan.kind === 'capture' ? undefined : workloadSpec.replace(/^ptx:(.+):[^:]+$/, '$1'), '--args': options.args });
      if (options.driver !== 'cuda') {
        throw new UsageError(
          'profile',
          `CUPTI's counters need the cuda driver (an NVIDIA GPU), not --driver ${options.driver}`,
          'Leave out --driver on a machine with an NVIDIA GPU; without one, kreplay replay and kreplay demo run on the host driver',
        );
      }
      const report = await (
        plan.kind === 'capture'
          ? profileCaptureReport(workloadSpec, selectCapturedLaunches(plan.folder, options, 'profile'), choice, { ...options, strategy: wasGiven(command, '--strategy') ? options.strategy : captureProfileStrategy }, io)
          : profile(plan, choice, options, io)
      ).catch((error: unknown) => {
        throw error instanceof DriverUnavailableError && error.driver === 'cuda' ? countersNeedCuda(error) : error;
      });
      await writeJsonThenPrint(io, options, report, printedProfile(report, options));
      const failure = captureProfileFailure(report);
      if (failure !== undefined) throw failure;
    });
}

/** The cuda driver did not open: what profiling needs, without advice to choose the host driver (it has no counters). */
function countersNeedCuda(error: DriverUnavailableError): KreplayError {
  return new KreplayError({
    packageName: 'cli',
    component: 'profile',
    cause: error,
    message: `[cli] [profile] CUPTI's counters need the cuda driver, and it is not available here: ${error.reason}. Profile on a machine with an NVIDIA GPU and its driver; without one, kreplay replay and kreplay demo run on the host driver.`,
  });
}

/** What `kreplay profile` prints: JSON, CSV with ncu's columns, or ncu's page as a table. */
function printedProfile(report: ProfileReport, options: ProfileOptions): string {
  if (options.json) return `${JSON.stringify(report)}\n`;
  if (options.csv) return profileCsv(report, options.page, options.printUnits ?? 'base');
  return describeProfile(report, { units: options.printUnits ?? 'auto', page: options.page });
}

/**
 * The profile of a capture with each row's launch: its shape (grid, block), kernel and resources.
 * With `--graph-profiling graph` a graph launch's row (named by its first node's sequence) is a whole
 * graph, and has no one launch's shape: the rows of graph nodes are left as they are.
 * `registersPerThread`: the driver's count of each function the replay loaded.
 */
async function withCaptured(report: ProfileReport, folder: CaptureFolder, registersPerThread: ReadonlyMap<string, number>): Promise<ProfileReport> {
  const inGraphs = report.graphProfiling === 'graph' ? folder.launches.filter((launch) => graphNodeOf(launch) !== undefined) : [];
  if (inGraphs.length === 0) {
    const shaped = withLaunchShapes(report, folder);
    return { ...shaped, dispatches: await withCapturedLaunches(shaped.dispatches, folder, registersPerThread) };
  }
  const wholeGraphs = new Set(inGraphs.map((launch) => launch.sequence));
  const others = { ...folder, launches: folder.launches.filter((launch) => !wholeGraphs.has(launch.sequence)) };
  const shaped = withLaunchShapes(report, others);
  return { ...shaped, dispatches: await withCapturedLaunches(shaped.dispatches, others, registersPerThread) };
}

async function profileCaptureReport(spec: string, folder: CaptureFolder, choice: MetricChoice, options: ProfileOptions & ConditionFlags, io: CliIo): Promise<ProfileReport> {
  const { metrics, sections, commandLineMetrics } = resolveMetricChoice(choice, folder.manifest.device.architecture);
  const graphProfiling = options.graphProfiling ?? defaultGraphProfiling;
  const measure = graphProfiling === 'graph' ? 'dispatch' : options.range === 'kernel' || options.range === 'dispatch' ? options.range : options.measure;
  const range = typeof options.range === 'number' || options.range === 'auto' ? options.range : undefined;
  const progress = createProgress(io, { label: 'profile', total: folder.launches.length, unit: 'launches' });
  const profiled = await profileCapture(folder, {
    metrics,
    measure,
    graphProfiling,
    strategy: options.strategy,
    tier: options.tier,
    ...(range === undefined ? {} : { range }),
    conditions: conditionsFromFlags(options),
    onLaunch: (done) => progress.update(done),
  }).finally(() => progress.done());
  const report: ProfileReport = {
    ...profileSchemaFields,
    driver: profiled.driver,
    device: profiled.device,
    chip: profiled.chip,
    architecture: folder.manifest.device.architecture,
    workload: `${spec} (${folder.launches.length} launches)`,
    strategy: profiled.strategy,
    measure: profiled.measure,
    cacheControl: profiled.cacheControl,
    range: profiled.range,
    graphProfiling: profiled.graphProfiling,
    passes: profiled.passes,
    warmRuns: profiled.warmRuns,
    samples: profiled.samples,
    conditions: profiled.conditions,
    metrics,
    sections,
    commandLineMetrics,
    units: profiled.units,
    setupMs: profiled.setupMs,
    wallMs: profiled.wallMs,
    dispatches: profiled.rows,
    ranges: profiled.ranges,
    notes: profiled.notes,
    damaged: profiled.damaged,
  };
  return withCaptured(report, folder, profiled.registersPerThread);
}

async function profile(plan: Exclude<ProfileWorkloadPlan, { readonly kind: 'capture' }>, choice: MetricChoice, options: ProfileOptions & ConditionFlags, io: CliIo): Promise<ProfileReport> {
  // `--range kernel|dispatch` is the spelling of --measure from before ranges.
  const measure = options.range === 'kernel' || options.range === 'dispatch' ? options.range : options.measure;
  const rangeLength = workloadRange(options.range);
  await using runtime = await openRuntime({ driver: options.driver });
  const agent = runtime.agents[0]!;
  const { metrics, sections, commandLineMetrics } = resolveMetricChoice(choice, agent.info.architecture);
  const started = performance.now();
  const passes = await cuptiPasses({ runtime, metrics, agentIds: [agent.id], range: measure, conditions: conditionsFromFlags(options) });
  const { warmRuns } = passes.conditions;
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
    // A loaded kernel's registers as the driver counts them (built-in kernels say none).
    const builtins = new Set<KernelDescriptor>(Object.values(runtime.kernels));
    const { rows, ranges } = await profileDispatches(engine, queue, workload, {
      dispatches: options.dispatches,
      range: rangeLength,
      onProgress: (done) => progress.update(done),
      registersOf: (kernel) => (builtins.has(kernel) ? null : runtime.kernelRegisters(kernel, agent.id)),
    }).finally(() => progress.done());
    const wallMs = performance.now() - profiledAt;
    return {
      ...profileSchemaFields,
      driver: runtime.driver,
      device: agent.info.name,
      chip: session.plan.chip,
      architecture: agent.info.architecture,
      workload: workload.description,
      strategy: strategy.name,
      measure: session.range,
      cacheControl: session.cacheControl,
      range: rangeLength,
      passes: session.passCount,
      warmRuns,
      samples: passes.conditions.samples,
      conditions: passes.conditions,
      metrics,
      sections,
      commandLineMetrics,
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

/**
 * The error of a `capture:` profile in which a launch was not profiled (it failed, was declined or
 * collected nothing) or a record of the folder was damaged; undefined when every launch was
 * profiled, and for the other workloads.
 */
export function captureProfileFailure(report: ProfileReport): KreplayError | undefined {
  if (report.damaged === undefined) return undefined;
  return capturedLaunchFailure({
    command: 'profile',
    what: 'were not profiled',
    launches: report.dispatches.filter(notProfiled).map((row) => `${launchName(row)} (failed)`),
    launchFix: "see each launch's error above (kreplay replay --capture DIR runs the launches without counters)",
    damaged: report.damaged.length,
    ran: report.dispatches.length,
  });
}
