import type { Runtime } from '@kreplay/native';
import { createReplayEngine, fixedPasses, type ReplayEngine } from '@kreplay/replay';
import { createStaging, type DisposableSnapshotStrategy } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import { median, secondsSince } from './statistics.js';
import { strategyByName, strategyNames } from './strategy-by-name.js';

/** Options of {@link measureWindowCost}. */
export interface WindowCostOptions {
  /** Dispatches per timing. Default 2000. */
  readonly dispatches?: number;
  /** Timings per measurement (the median is reported). Default 3. */
  readonly repetitions?: number;
  /** Bytes of the one buffer the tiny kernel writes. Default 4096. */
  readonly footprintBytes?: number;
  /** Called after each round of timings (a warm-up round, then `repetitions`): `done` of `total` rounds. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The window's cost for one strategy. */
export interface WindowCost {
  readonly strategy: string;
  /** Whether the window timed its phases with device events (the engine's `phaseTimings`). */
  readonly phaseTimings: boolean;
  /** A replayed dispatch with two passes, waited for. */
  readonly windowMicroseconds: number;
  /** What replay adds to running the dispatch once: the window minus one bare dispatch. */
  readonly overheadMicroseconds: number;
  /** The window's fixed cost: the window minus its two passes run without replay (one wait). */
  readonly fixedMicroseconds: number;
  /** How many bare dispatches one window costs. */
  readonly ratioToBareDispatch: number;
}

/** What the replay window costs on a tiny footprint, against a bare dispatch. */
export interface WindowCostResult {
  readonly driver: string;
  readonly passes: 2;
  readonly footprintBytes: number;
  /** One kernel enqueued and waited for, without replay. */
  readonly bareDispatchMicroseconds: number;
  /** The kernel enqueued twice and waited for once: the window's two passes without replay. */
  readonly passesWithoutReplayMicroseconds: number;
  readonly strategies: readonly WindowCost[];
}

/**
 * Measures the fixed per-dispatch cost of the replay window (a tiny footprint, two passes, no
 * verification) for each shipped strategy, with and without device timing of its phases, and its
 * ratio to a bare dispatch of the same kernel.
 * A benchmark: it reports what it measured.
 */
export async function measureWindowCost(runtime: Runtime, options: WindowCostOptions = {}): Promise<WindowCostResult> {
  const dispatches = options.dispatches ?? 2000;
  const repetitions = options.repetitions ?? 3;
  const footprintBytes = options.footprintBytes ?? 4096;
  const agent = runtime.agents[0]!;
  // Disposed in reverse order when the function returns or throws, after the engines and strategies.
  using tracker = createTracker(runtime);
  using staging = createStaging(runtime, tracker);
  using buffer = agent.allocate(footprintBytes);
  await using queue = agent.createQueue();
  const kernel = runtime.kernels.fill;
  const args = { destination: buffer.address, bytes: footprintBytes, value: 7 };
  const timePerDispatch = async (dispatch: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < dispatches; index += 1) await dispatch();
    return (secondsSince(start) / dispatches) * 1e6;
  };
  const bare = () => {
    queue.enqueueKernel(kernel, args);
    return queue.synchronize();
  };
  const twoPasses = () => {
    queue.enqueueKernel(kernel, args);
    queue.enqueueKernel(kernel, args);
    return queue.synchronize();
  };
  const shipped: DisposableSnapshotStrategy[] = [];
  const engines: { readonly name: string; readonly phaseTimings: boolean; readonly engine: ReplayEngine }[] = [];
  try {
    for (const name of strategyNames) {
      for (const phaseTimings of [true, false]) {
        const strategy = strategyByName(name, { tier: 'device' });
        shipped.push(strategy);
        engines.push({ name, phaseTimings, engine: createReplayEngine({ runtime, tracker, staging, strategy, passes: fixedPasses(2), phaseTimings }) });
      }
    }
    // Bare and windowed timings alternate, so drift of a shared machine hits every column alike.
    const bareSamples: number[] = [];
    const twoPassSamples: number[] = [];
    const windowSamples = engines.map((): number[] => []);
    for (let repetition = 0; repetition <= repetitions; repetition += 1) {
      const bareTime = await timePerDispatch(bare);
      const twoPassTime = await timePerDispatch(twoPasses);
      const windowTimes: number[] = [];
      for (const { engine } of engines) windowTimes.push(await timePerDispatch(() => engine.dispatch({ queue, kernel, args })));
      options.onProgress?.(repetition + 1, repetitions + 1);
      if (repetition === 0) continue; // warm-up
      bareSamples.push(bareTime);
      twoPassSamples.push(twoPassTime);
      windowTimes.forEach((time, index) => windowSamples[index]!.push(time));
    }
    const bareDispatchMicroseconds = median(bareSamples);
    const passesWithoutReplayMicroseconds = median(twoPassSamples);
    const strategies: WindowCost[] = engines.map(({ name, phaseTimings }, index) => {
      const windowMicroseconds = median(windowSamples[index]!);
      return {
        strategy: name,
        phaseTimings,
        windowMicroseconds,
        overheadMicroseconds: windowMicroseconds - bareDispatchMicroseconds,
        fixedMicroseconds: windowMicroseconds - passesWithoutReplayMicroseconds,
        ratioToBareDispatch: windowMicroseconds / bareDispatchMicroseconds,
      };
    });
    return { driver: runtime.driver, passes: 2, footprintBytes, bareDispatchMicroseconds, passesWithoutReplayMicroseconds, strategies };
  } finally {
    for (const { engine } of engines) await engine.dispose();
    for (const strategy of shipped) strategy.dispose();
  }
}
