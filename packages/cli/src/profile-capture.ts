import { openCapture } from '@kreplay/native';
import type { CaptureFolder, ProfilerCacheControl, ProfilerRange } from '@kreplay/native';
import { strategyByName } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import type { ProfileConditions, ProfileConditionsInput } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
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
  readonly strategy: string;
  readonly tier: StagingTierChoice;
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
  /** One row per captured launch, `dispatch` being its sequence and `kernel` its function. */
  readonly rows: readonly ProfileRow[];
}

/**
 * CUPTI metrics of every complete launch of a capture: each launch's memory made as it was before
 * the program's launch (openCapture), then the launch replayed through the engine once per pass
 * CUPTI needs, on the cuda driver.
 * @throws what openCapture and cuptiPasses throw (no cuda driver, an address that cannot be had, CUPTI missing).
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
    const rows: ProfileRow[] = [];
    const profiledAt = performance.now();
    for (const launch of folder.launches) {
      const row = await profileSamples(sampleCount, async () => {
        // Each sample starts from the launch's captured memory: prepare writes back what the last pass changed.
        const dispatch = await replay.prepare(launch);
        const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
        return { ...profileRow(launch.sequence, null, result, result.collected as CollectedMetrics | undefined, 1), kernel: launch.function };
      });
      rows.push(row);
      options.onLaunch?.(rows.length);
    }
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
      wallMs: performance.now() - profiledAt,
      rows,
    };
  } finally {
    await passes.dispose();
  }
}

