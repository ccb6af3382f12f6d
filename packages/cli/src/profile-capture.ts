import { openCapture } from '@kreplay/native';
import type { CaptureFolder, ProfilerCacheControl, ProfilerRange } from '@kreplay/native';
import { strategyByName } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { profileRow, type CollectedMetrics, type ProfileRow } from './profile-dispatches.js';

/** How `kreplay profile capture:DIR` profiles. */
export interface ProfileCaptureOptions {
  readonly metrics: readonly string[];
  readonly measure: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
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
  const passes = await cuptiPasses({ runtime, metrics: options.metrics, agentIds: [agent.id], range: options.measure, cacheControl: options.cacheControl });
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
      const dispatch = await replay.prepare(launch);
      const result = await engine.dispatch({ queue, kernel: dispatch.kernel, args: dispatch.args, launch: dispatch.launch });
      rows.push({ ...profileRow(launch.sequence, null, result, result.collected as CollectedMetrics | undefined, 1), kernel: launch.function });
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
      units: Object.fromEntries(options.metrics.map((metric, index) => [metric, session.plan.units[index] ?? ''])),
      setupMs,
      wallMs: performance.now() - profiledAt,
      rows,
    };
  } finally {
    await passes.dispose();
  }
}
