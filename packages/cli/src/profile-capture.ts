import { openCapture, UnsupportedError } from '@kreplay/native';
import type { CaptureFolder, CaptureLaunch, ProfilerCacheControl, ProfilerRange } from '@kreplay/native';
import { strategyByName } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { copyPathWhileOpen } from './copy-path-while-open.js';
import { profileRow, type CollectedMetrics, type ProfileRow } from './profile-dispatches.js';
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
  /** Times each launch is profiled, each metric's median reported (default {@link captureSamples}). */
  readonly samples?: number;
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
  /** One row per captured launch, `dispatch` being its sequence and `kernel` its function; a launch that failed has its `error` and no metrics. */
  readonly rows: readonly ProfileRow[];
  /** The reason of each damaged record of the folder (not profiled), led by its file. */
  readonly damaged: readonly string[];
}

/**
 * Profiles each launch with `profileLaunch`, one after another. A launch that fails (it cannot be
 * prepared or loaded, its run fails) gets a row with its error and no metrics, and the profile goes
 * on with the next launch, as `kreplay replay --capture` does. Calls `onLaunch` with the launches
 * done after each.
 * @throws {UnsupportedError} when the capture cannot run on this device at all (another
 *   architecture): said once, not for every launch.
 */
export async function profileEachLaunch(
  launches: readonly CaptureLaunch[],
  profileLaunch: (launch: CaptureLaunch) => Promise<ProfileRow>,
  onLaunch?: (done: number) => void,
): Promise<ProfileRow[]> {
  const rows: ProfileRow[] = [];
  for (const launch of launches) {
    try {
      rows.push(await profileLaunch(launch));
    } catch (error) {
      if (error instanceof UnsupportedError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      rows.push({ dispatch: launch.sequence, kernel: launch.function, range: null, replayed: false, passes: 0, wallMs: 0, bytesCopied: 0, metrics: null, error: message });
    }
    onLaunch?.(rows.length);
  }
  return rows;
}

/**
 * CUPTI metrics of every complete launch of a capture: each launch's memory made as it was before
 * the program's launch (openCapture), then the launch replayed through the engine once per pass
 * CUPTI needs, on the cuda driver. A launch that fails gets a row with its error
 * ({@link profileEachLaunch}); the folder's damaged records are listed in `damaged`.
 * @throws what openCapture and cuptiPasses throw (no cuda driver, an address that cannot be had, CUPTI missing).
 * @throws {UnsupportedError} when the capture's modules cannot run on this device's architecture.
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
    const profiledAt = performance.now();
    const rows = await profileEachLaunch(
      folder.launches,
      (launch) =>
        profileSamples(sampleCount, async () => {
          // Each sample starts from the launch's captured memory: prepare writes back what the last pass changed.
          const dispatch = await replay.prepare(launch);
          const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
          return { ...profileRow(launch.sequence, null, result, result.collected as CollectedMetrics | undefined, 1), kernel: launch.function };
        }),
      options.onLaunch,
    );
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
      rows,
      damaged: folder.damaged.map((record) => record.reason),
    };
  } finally {
    await passes.dispose();
  }
}

