import { openCapture, UnsupportedError } from '@kreplay/native';
import type { CaptureFolder, CaptureGraphNode, CaptureLaunch, CaptureReplay, ProfilerCacheControl, ProfilerRange, Queue } from '@kreplay/native';
import { strategyByName } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import type { ProfileConditions, ProfileConditionsInput, ReplayEngine } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { dispatchCaptureRange, type CaptureRangeContext } from './capture-range-replay.js';
import { captureUnits, dispatchCaptureGraph } from './capture-graph-units.js';
import { capturedGraphName, defaultGraphProfiling, graphField, type GraphProfiling } from './graph-profiling.js';
import { defaultCaptureRange, planCaptureRanges, type CaptureRangeChoice } from './capture-ranges.js';
import { assembleCaptureRange, type CaptureRangeSample } from './profile-capture-range.js';
import { profileRow, type CollectedMetrics, type ProfileRange, type ProfileRow } from './profile-dispatches.js';
import { profileSamples } from './profile-samples.js';

/**
 * The strategy a capture is profiled with unless --strategy says otherwise: the pages the launch
 * wrote, restored between passes. After it a kernel's L2 sectors and lookup hits read as under ncu,
 * where a full restore by the copy engines read 1.6-1.8x ncu's hits on an H100
 * (experiments/results/counter-experiment-h100, run 16).
 */
export const captureProfileStrategy = 'dirty-pages';

/**
 * Unprofiled runs of each captured launch before its passes unless --warm-runs says otherwise: the
 * program ran its kernels before the captured step, and ncu measures them warm; a first run in the
 * profiling process loads the kernel's code and pays its first fetches.
 */
export const captureWarmRuns = 2;

/**
 * Samples of each captured launch unless --samples says otherwise: all its passes run this many
 * times, each time from the launch's captured memory, and each metric's median reported. Against
 * 13 ncu runs of a training step on an H100 (experiments/results/counter-experiment-h100, run 17), two
 * profiles of one sample each lay within ncu's spread on 7 and 11 of 26 kernels; four of three
 * samples each on 5, 11, 9 and 11 (the 5 the first profile after the capture, its clocks 0.7% below
 * ncu's); one of five on 11.
 */
export const captureSamples = 3;

/** How `kreplay profile capture:DIR` profiles. */
export interface ProfileCaptureOptions {
  readonly metrics: readonly string[];
  readonly measure: ProfilerRange;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  /** Launches per range: `auto` (whole captured sequences, up to captureRangeCap launches) or K; default `auto` on format version 2, else 1. */
  readonly range?: CaptureRangeChoice;
  /**
   * `--graph-profiling`: each kernel node of a captured graph launch its own result (`node`, the
   * default), or each captured graph launch one result (`graph`: its nodes replayed as one graph;
   * measure `dispatch`, a range around the whole graph, as ncu measures a graph as one workload).
   */
  readonly graphProfiling?: GraphProfiling;
  /**
   * What the profiler does around each pass; warm runs default to {@link captureWarmRuns}, samples
   * (times each launch is profiled, each metric's median reported) to {@link captureSamples}.
   */
  readonly conditions?: ProfileConditionsInput;
  readonly onLaunch?: (done: number) => void;
}

/** What profiling a capture measured, for the profile report. */
export interface ProfiledCapture {
  readonly device: string;
  readonly driver: string;
  readonly chip: string;
  readonly strategy: string;
  readonly measure: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly passes: number;
  readonly warmRuns: number;
  readonly samples: number;
  /** The conditions every launch was profiled under. */
  readonly conditions: ProfileConditions;
  readonly units: Readonly<Record<string, string>>;
  readonly setupMs: number;
  readonly wallMs: number;
  /** `--range`: `auto` or launches per range. */
  readonly range: CaptureRangeChoice;
  /** The most launches in one range. */
  readonly rangeLength: number;
  /** `--graph-profiling`: `node` or `graph`. */
  readonly graphProfiling: GraphProfiling;
  /**
   * One row per captured launch, by sequence, `dispatch` being its sequence and `kernel` its function
   * (as ncu names it; a graph's kernel node has `graph`: its graph, node and graph launch); with `--graph-profiling graph` one row
   * per captured graph launch instead of its nodes' (`dispatch` its first node's sequence, `kernel` `graph G, launch K (N nodes)`).
   */
  readonly rows: readonly ProfileRow[];
  /** The ranges of two or more launches, in the order they ran. */
  readonly ranges: readonly ProfileRange[];
  /** What the captured sequences' reader said. */
  readonly notes: readonly string[];
  /** The reason of each damaged record of the folder (not profiled), led by its file. */
  readonly damaged: readonly string[];
  /** Registers per thread of each profiled function as the driver loaded it, where it says (ncu's launch__registers_per_thread). */
  readonly registersPerThread: ReadonlyMap<string, number>;
}

/** What profiling one range (or one launch alone) gave: a row per launch, and the range's row when it ran as one. */
export interface ProfiledRange {
  readonly rows: readonly ProfileRow[];
  readonly range?: ProfileRange;
}

/**
 * Profiles each range of launches (a launch alone is a range of one) with `profileRange`, one after
 * another. A range that fails (a launch cannot be prepared or loaded, its run fails) gives each of
 * its launches a row with the error and no metrics, and the profile goes on with the next range, as
 * `kreplay replay --capture` does. Calls `onLaunch` with the launches done after each range.
 * @returns the rows by sequence, and the ranges that ran as one, in order (`profileRange` is given
 *   the index the range's row will have).
 * @throws {UnsupportedError} when the capture cannot run on this device at all (another
 *   architecture): said once, not for every launch.
 */
export async function profileEachRange(
  plan: readonly (readonly CaptureLaunch[])[],
  profileRange: (launches: readonly CaptureLaunch[], index: number) => Promise<ProfiledRange>,
  onLaunch?: (done: number) => void,
): Promise<{ readonly rows: ProfileRow[]; readonly ranges: ProfileRange[] }> {
  const rows: ProfileRow[] = [];
  const ranges: ProfileRange[] = [];
  for (const launches of plan) {
    try {
      const profiled = await profileRange(launches, ranges.length);
      rows.push(...profiled.rows);
      if (profiled.range !== undefined) ranges.push(profiled.range);
    } catch (error) {
      if (error instanceof UnsupportedError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      for (const launch of launches) rows.push({ dispatch: launch.sequence, kernel: launch.function, ...graphField(launch), range: null, replayed: false, passes: 0, wallMs: 0, bytesCopied: 0, metrics: null, error: message });
    }
    onLaunch?.(rows.length);
  }
  rows.sort((a, b) => a.dispatch - b.dispatch);
  return { rows, ranges };
}

/**
 * CUPTI metrics of every complete launch of a capture, in ranges (`options.range`,
 * planCaptureRanges): a range of consecutive launches of a captured sequence is prepared from its
 * captured memory (CaptureReplay.prepareRange) and replayed as one unit, each launch its own CUPTI
 * range in every pass, the program's work between launches copied in before each; a launch alone
 * has its memory made as it was before the program's launch, then is replayed once per pass CUPTI
 * needs. Warm runs and samples apply to each range as a whole. On the cuda driver. A range that
 * fails gives its launches rows with the error ({@link profileEachRange}); the folder's damaged
 * records are listed in `damaged`.
 * @throws what openCapture and cuptiPasses throw (no cuda driver, an address that cannot be had, CUPTI missing).
 * @throws {UnsupportedError} when the capture's modules cannot run on this device's architecture.
 */
export async function profileCapture(folder: CaptureFolder, options: ProfileCaptureOptions): Promise<ProfiledCapture> {
  await using replay = await openCapture(folder);
  const { runtime, agent } = replay;
  const started = performance.now();
  const conditions = { warmRuns: captureWarmRuns, samples: captureSamples, ...options.conditions };
  const passes = await cuptiPasses({ runtime, metrics: options.metrics, agentIds: [agent.id], range: options.measure, conditions });
  const { warmRuns, samples: sampleCount } = passes.conditions;
  const setupMs = performance.now() - started;
  const session = passes.sessions.get(agent.id)!;
  try {
    using tracker = createTracker(runtime);
    await replay.map();
    using staging = createStaging(runtime, tracker);
    using strategy = strategyByName(options.strategy, { tier: options.tier });
    await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes });
    await using queue = agent.createQueue();
    const choice = options.range ?? defaultCaptureRange(folder);
    const graphProfiling = options.graphProfiling ?? defaultGraphProfiling;
    const plan = planCaptureRanges(folder, choice);
    const units = captureUnits(plan.ranges, graphProfiling);
    const graphs = new Map(units.flatMap((unit) => (unit.kind === 'graph' ? [[unit.launches, unit.node] as const] : [])));
    const context = { replay, engine, queue, tracker };
    const profiledAt = performance.now();
    const { rows, ranges } = await profileEachRange(
      units.map((unit) => unit.launches),
      async (launches, index) => {
        const node = graphs.get(launches);
        if (node !== undefined) return { rows: [await profileGraph(context, launches, node, sampleCount)] };
        return launches.length === 1
          ? { rows: [await profileAlone(replay, engine, queue, launches[0]!, sampleCount)] }
          : assembleCaptureRange(launches, index, await rangeSamples(context, launches, sampleCount));
      },
      options.onLaunch,
    );
    const wallMs = performance.now() - profiledAt;
    return {
      device: agent.info.name,
      driver: runtime.driver,
      chip: session.plan.chip,
      strategy: strategy.name,
      measure: session.range,
      cacheControl: session.cacheControl,
      passes: session.passCount,
      warmRuns,
      samples: sampleCount,
      conditions: passes.conditions,
      units: Object.fromEntries(options.metrics.map((metric, index) => [metric, session.plan.units[index] ?? ''])),
      setupMs,
      wallMs,
      range: choice,
      rangeLength: plan.rangeLength,
      graphProfiling,
      rows,
      ranges,
      notes: plan.notes,
      damaged: folder.damaged.map((record) => record.reason),
      registersPerThread: await loadedRegisters(replay, units.flatMap((unit) => unit.launches)),
    };
  } finally {
    await passes.dispose();
  }
}


/** The driver's register count of each function of `launches`, as the replay loaded it; functions it does not say for are left out. */
async function loadedRegisters(replay: CaptureReplay, launches: readonly CaptureLaunch[]): Promise<ReadonlyMap<string, number>> {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (const launch of launches) {
    if (seen.has(launch.function)) continue;
    seen.add(launch.function);
    const registers = await replay.registersPerThread(launch);
    if (registers !== null) counts.set(launch.function, registers);
  }
  return counts;
}

/** One launch profiled alone (`--range 1`): each sample from its captured memory. */
function profileAlone(replay: CaptureReplay, engine: ReplayEngine, queue: Queue, launch: CaptureLaunch, samples: number): Promise<ProfileRow> {
  return profileSamples(samples, async () => {
    // Each sample starts from the launch's captured memory: prepare writes back what the last pass changed.
    const dispatch = await replay.prepare(launch);
    const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
    return { ...profileRow(launch.sequence, null, result, result.collected as CollectedMetrics | undefined, 1), kernel: launch.function, ...graphField(launch) };
  });
}

/** A captured graph launch profiled as one workload (`--graph-profiling graph`): each sample its nodes made one graph from their captured memory. */
function profileGraph(context: Omit<CaptureRangeContext, 'verify'>, launches: readonly CaptureLaunch[], node: CaptureGraphNode, samples: number): Promise<ProfileRow> {
  return profileSamples(samples, async () => {
    const { result } = await dispatchCaptureGraph(context, launches);
    return { ...profileRow(launches[0]!.sequence, null, result, result.collected as CollectedMetrics | undefined, 1), kernel: capturedGraphName(node, launches.length) };
  });
}

/** `samples` runs of a range, each from the range's captured memory (prepareRange writes back what the last pass changed). */
async function rangeSamples(context: Omit<CaptureRangeContext, 'verify'>, launches: readonly CaptureLaunch[], samples: number): Promise<CaptureRangeSample[]> {
  const taken: CaptureRangeSample[] = [];
  while (taken.length < samples) {
    const { prepared, result } = await dispatchCaptureRange(context, launches);
    taken.push({ result, bytesPrepared: prepared.bytesWritten, bytesBefore: prepared.launches.reduce((sum, launch) => sum + launch.bytesBefore, 0) });
  }
  return taken;
}
