import { openCapture } from '@kreplay/native';
import type { CaptureFolder, CaptureLaunch, CaptureReplay, ProfilerCacheControl, ProfilerRange, Queue } from '@kreplay/native';
import { strategyByName } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import type { ReplayEngine } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { dispatchCaptureRange, type CaptureRangeContext } from './capture-range-replay.js';
import { defaultCaptureRange, planCaptureRanges, type CaptureRangeChoice } from './capture-ranges.js';
import { copyPathWhileOpen } from './copy-path-while-open.js';
import { assembleCaptureRange, type CaptureRangeSample } from './profile-capture-range.js';
import { profileRow, type CollectedMetrics, type ProfileRange, type ProfileRow } from './profile-dispatches.js';
import { profileSamples } from './profile-samples.js';

/**
 * The strategy a capture is profiled with unless --strategy says otherwise: the pages the launch
 * wrote, restored between passes. After it a kernel's L2 sectors and lookup hits read as under ncu,
 * where a full restore by the copy engines read 1.6-1.8x ncu's hits on an H100
 * (bench/examples/counter-experiment-h100, run 16).
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
 * 13 ncu runs of a training step on an H100 (bench/examples/counter-experiment-h100, run 17), two
 * profiles of one sample each lay within ncu's spread on 7 and 11 of 26 kernels; four of three
 * samples each on 5, 11, 9 and 11 (the 5 the first profile after the capture, its clocks 0.7% below
 * ncu's); one of five on 11.
 */
export const captureSamples = 3;

/** How `kreplay profile capture:DIR` profiles. */
export interface ProfileCaptureOptions {
  readonly metrics: readonly string[];
  readonly measure: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  /** Unprofiled runs of each launch before its passes (default {@link captureWarmRuns}). */
  readonly warmRuns?: number;
  /** Times each launch (each range) is profiled, each metric's median reported (default {@link captureSamples}). */
  readonly samples?: number;
  /** Launches per range: `auto` (whole captured sequences, up to captureRangeCap launches) or K; default `auto` on format version 2, else 1. */
  readonly range?: CaptureRangeChoice;
  /**
   * Whether the restores between passes are copy-engine copies (KREPLAY_CUDA_COPY_PATH=api while
   * the capture is open, unless that is set already) rather than the driver's copy kernels.
   */
  readonly restoreByCopyEngines?: boolean;
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
  readonly units: Readonly<Record<string, string>>;
  readonly setupMs: number;
  readonly wallMs: number;
  /** `--range`: `auto` or launches per range. */
  readonly range: CaptureRangeChoice;
  /** The most launches in one range. */
  readonly rangeLength: number;
  /** One row per captured launch, by sequence, `dispatch` being its sequence and `kernel` its function. */
  readonly rows: readonly ProfileRow[];
  /** The ranges of two or more launches, in the order they ran. */
  readonly ranges: readonly ProfileRange[];
  /** What the captured sequences' reader said. */
  readonly notes: readonly string[];
}

/**
 * CUPTI metrics of every complete launch of a capture, in ranges (`options.range`,
 * planCaptureRanges): a range of consecutive launches of a captured sequence is prepared from its
 * captured memory (CaptureReplay.prepareRange) and replayed as one unit, each launch its own CUPTI
 * range in every pass, the program's work between launches copied in before each; a launch alone
 * has its memory made as it was before the program's launch, then is replayed once per pass CUPTI
 * needs. Warm runs and samples apply to each range as a whole. On the cuda driver.
 * @throws what openCapture and cuptiPasses throw (no cuda driver, an address that cannot be had, CUPTI missing).
 */
export async function profileCapture(folder: CaptureFolder, options: ProfileCaptureOptions): Promise<ProfiledCapture> {
  using _copyPath = options.restoreByCopyEngines ? copyPathWhileOpen('api') : undefined;
  await using replay = await openCapture(folder);
  const { runtime, agent } = replay;
  const started = performance.now();
  const warmRuns = options.warmRuns ?? captureWarmRuns;
  const sampleCount = options.samples ?? captureSamples;
  const passes = await cuptiPasses({ runtime, metrics: options.metrics, agentIds: [agent.id], range: options.measure, cacheControl: options.cacheControl, warmRuns });
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
    const plan = planCaptureRanges(folder, choice);
    const rows: ProfileRow[] = [];
    const ranges: ProfileRange[] = [];
    const profiledAt = performance.now();
    for (const launches of plan.ranges) {
      if (launches.length === 1) rows.push(await profileAlone(replay, engine, queue, launches[0]!, sampleCount));
      else {
        const profiled = assembleCaptureRange(launches, ranges.length, await rangeSamples({ replay, engine, queue, tracker }, launches, sampleCount));
        rows.push(...profiled.rows);
        ranges.push(profiled.range);
      }
      options.onLaunch?.(rows.length);
    }
    rows.sort((a, b) => a.dispatch - b.dispatch);
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
      units: Object.fromEntries(options.metrics.map((metric, index) => [metric, session.plan.units[index] ?? ''])),
      setupMs,
      wallMs: performance.now() - profiledAt,
      range: choice,
      rangeLength: plan.rangeLength,
      rows,
      ranges,
      notes: plan.notes,
    };
  } finally {
    await passes.dispose();
  }
}


/** One launch profiled alone (`--range 1`): each sample from its captured memory. */
function profileAlone(replay: CaptureReplay, engine: ReplayEngine, queue: Queue, launch: CaptureLaunch, samples: number): Promise<ProfileRow> {
  return profileSamples(samples, async () => {
    // Each sample starts from the launch's captured memory: prepare writes back what the last pass changed.
    const dispatch = await replay.prepare(launch);
    const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
    return { ...profileRow(launch.sequence, null, result, result.collected as CollectedMetrics | undefined, 1), kernel: launch.function };
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
