import type { Runtime } from '@kreplay/native';
import { createReplayEngine, fixedPasses } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { sampleOf } from '../report/dispatch-sample.js';
import type { DispatchSample } from '../report/dispatch-sample.js';
import { strategyByName } from '../strategy-by-name.js';
import type { BenchCell } from '../sweep/bench-cell.js';
import { replayVariants } from '../sweep/replay-variants.js';
import type { ReplayVariantName } from '../sweep/replay-variants.js';
import { createScatterWorkload } from '../workloads/scatter-workload.js';
import { createBackgroundStreams } from './background-streams.js';
import { startRssSampler } from './rss-sampler.js';
import { stopBefore } from './run-measurement.js';
import type { RunControl, RunMeasurement, StopReason } from './run-measurement.js';

/**
 * Runs one cell of a replay variant on the first agent: a fresh tracker, staging, strategy, engine
 * and scatter workload, plus the cell's background streams; every dispatch is a sample. The RSS
 * sampler starts before any of it is allocated, so its growth is everything the run held.
 */
export async function runReplayCell(runtime: Runtime, cell: BenchCell, control: RunControl): Promise<RunMeasurement> {
  const variant = replayVariants[cell.variant as ReplayVariantName];
  const agent = runtime.agents[0]!;
  const rss = startRssSampler(control.rssSampleMilliseconds);
  const cleanup: (() => unknown)[] = [() => rss.stop()];
  const owned = <T>(value: T, release: (value: T) => unknown): T => (cleanup.push(() => release(value)), value);
  try {
    const tracker = owned(createTracker(runtime), (value) => value.dispose());
    const staging = owned(createStaging(runtime, tracker, { reuse: variant.reuse }), (value) => value.dispose());
    const strategy = owned(strategyByName(variant.strategy, { tier: variant.tier }), (value) => value.dispose?.());
    const workload = owned(await createScatterWorkload(agent, cell), (value) => value.free());
    const background = cell.streams > 1 ? owned(createBackgroundStreams(agent, tracker, cell.streams - 1, cell.footprintBytes), (value) => value.dispose()) : undefined;
    const engine = owned(createReplayEngine({ runtime, tracker, staging, strategy, passes: fixedPasses(cell.passes), quiesce: variant.quiesce }), (value) => value.dispose());
    const queue = owned(agent.createQueue(), (value) => value.dispose());
    const soloKernelsPerSecond = background ? await background.measureSolo(control.backgroundSoloSeconds) : 0;
    const stopBackground = background?.start();
    const samples: DispatchSample[] = [];
    const notes = new Set<string>();
    let tier: string | null = null;
    let stopped: StopReason | null = null;
    const startedMs = performance.now();
    for (let index = 0; index < cell.dispatches; index += 1) {
      if ((stopped = stopBefore(index, startedMs, control)) !== null) break;
      const result = await engine.dispatch({ queue, ...workload.dispatch(index) });
      samples.push(sampleOf(index, result));
      tier = result.tier ?? tier;
      result.notes.forEach((note) => notes.add(note));
      control.onDispatch?.(index);
    }
    const seconds = (performance.now() - startedMs) / 1000;
    const memory = rss.stop();
    const concurrentKernelsPerSecond = (await stopBackground?.()) ?? 0;
    return {
      cell,
      strategy: strategy.name,
      tier,
      samples,
      seconds,
      stopped,
      memory: {
        rssBaselineBytes: memory.baselineBytes,
        rssPeakBytes: memory.peakBytes,
        rssSamples: memory.samples,
        stagingHostHighWaterBytes: staging.usage().hostHighWaterBytes,
      },
      background: background
        ? {
            streams: cell.streams - 1,
            bytesPerKernel: background.bytesPerKernel,
            soloKernelsPerSecond,
            concurrentKernelsPerSecond,
            throughputLost: soloKernelsPerSecond > 0 ? 1 - concurrentKernelsPerSecond / soloKernelsPerSecond : 0,
          }
        : null,
      notes: [...notes],
    };
  } finally {
    for (const release of cleanup.reverse()) await release();
  }
}
