import { createReplayEngine, fixedPasses } from '@kreplay/replay';
import type { DispatchResult, VerifyMode } from '@kreplay/replay';
import { addByteAccounts, bytesCopied, createStaging, emptyByteAccount } from '@kreplay/snapshot';
import type { ByteAccount, StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import type { Runtime } from '@kreplay/native';
import { secondsSince } from './statistics.js';
import { strategyByName } from './strategy-by-name.js';
import { createScatterWorkload } from './workloads/scatter-workload.js';

/** Options of {@link runReplayExperiment}. */
export interface ReplayExperimentOptions {
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  readonly footprintBytes: number;
  readonly writeFraction: number;
  readonly dispatches: number;
  readonly passes: number;
  readonly verify: VerifyMode;
  readonly quiesce?: 'queue' | 'agent';
  readonly hostBytesLimit?: number;
  readonly reuse?: 'pooled' | 'per-dispatch';
  /** Called after each dispatch, for progress. */
  readonly onDispatch?: (index: number, result: DispatchResult) => void;
}

/** What a replay experiment measured. */
export interface ReplayExperimentResult {
  readonly driver: string;
  readonly strategy: string;
  readonly tier: string;
  readonly dispatches: number;
  readonly passes: number;
  readonly footprintBytes: number;
  /** Bytes copied, all directions, all dispatches. */
  readonly bytesCopied: number;
  /** dispatches x footprintBytes x passes: what the reference design copies. */
  readonly bytesModel: number;
  readonly bytesHashed: number;
  readonly bytes: ByteAccount;
  /** The most host RAM staging held at once. */
  readonly hostHighWaterBytes: number;
  /** The process's peak resident set. */
  readonly processPeakRssBytes: number;
  readonly seconds: number;
  readonly replayedDispatches: number;
  readonly declined: readonly string[];
  /** True when every dispatch verified, false when one did not, null with verification off. */
  readonly verified: boolean | null;
  readonly notes: readonly string[];
}

/**
 * Runs the default scatter workload through the replay engine on the first agent of `runtime`
 * and reports what it copied, hashed and held.
 * @throws ArgumentError for bad options.
 */
export async function runReplayExperiment(runtime: Runtime, options: ReplayExperimentOptions): Promise<ReplayExperimentResult> {
  const agent = runtime.agents[0]!;
  const tracker = createTracker(runtime);
  const staging = createStaging(runtime, tracker, { hostBytesLimit: options.hostBytesLimit, reuse: options.reuse });
  const strategy = strategyByName(options.strategy, { tier: options.tier });
  const workload = await createScatterWorkload(agent, options);
  const engine = createReplayEngine({
    runtime,
    tracker,
    staging,
    strategy,
    passes: fixedPasses(options.passes),
    quiesce: options.quiesce ?? 'queue',
    verify: options.verify,
  });
  const queue = agent.createQueue();
  let bytes = emptyByteAccount();
  let verified: boolean | null = options.verify === 'off' ? null : true;
  let replayedDispatches = 0;
  let tier = options.tier as string;
  const declined: string[] = [];
  const notes = new Set<string>();
  const start = process.hrtime.bigint();
  try {
    for (let index = 0; index < options.dispatches; index += 1) {
      const { kernel, args } = workload.dispatch(index);
      const result = await engine.dispatch({ queue, kernel, args });
      bytes = addByteAccounts(bytes, result.bytes);
      if (result.replayed) replayedDispatches += 1;
      if (result.declineReason) declined.push(result.declineReason);
      if (result.tier) tier = result.tier;
      if (verified !== null && result.verified === false) verified = false;
      result.notes.forEach((note) => notes.add(note));
      options.onDispatch?.(index, result);
    }
    return {
      driver: runtime.driver,
      strategy: strategy.name,
      tier,
      dispatches: options.dispatches,
      passes: options.passes,
      footprintBytes: workload.footprintBytes,
      bytesCopied: bytesCopied(bytes),
      bytesModel: options.dispatches * workload.footprintBytes * options.passes,
      bytesHashed: bytes.hashed,
      bytes,
      hostHighWaterBytes: staging.usage().hostHighWaterBytes,
      processPeakRssBytes: process.resourceUsage().maxRSS * 1024,
      seconds: secondsSince(start),
      replayedDispatches,
      declined,
      verified,
      notes: [...notes],
    };
  } finally {
    await queue.dispose();
    await engine.dispose();
    strategy.dispose?.();
    workload.free();
    staging.dispose();
    tracker.dispose();
  }
}
