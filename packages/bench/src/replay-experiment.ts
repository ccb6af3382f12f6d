import { createReplayEngine, fixedPasses, timingPasses } from '@kreplay/replay';
import type { DeclineCode, DispatchResult, RangeDispatch, VerifyMode } from '@kreplay/replay';
import { addByteAccounts, bytesCopied, createStaging, emptyByteAccount } from '@kreplay/snapshot';
import type { ByteAccount, SnapshotStrategy, StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import type { Queue, Runtime } from '@kreplay/native';
import { secondsSince } from './statistics.js';
import { strategyByName } from './strategy-by-name.js';
import { addToVerificationTally, emptyVerificationTally, verifiedOfTally } from './verification-tally.js';
import type { VerificationTally } from './verification-tally.js';
import { createScatterWorkload } from './workloads/scatter-workload.js';
import type { ScatterWorkload } from './workloads/scatter-workload.js';
import { benchArgumentError } from './argument-error.js';
import { summarizeRange, type ReplayRangeSummary } from './replay-range-summary.js';

export type { ReplayRangeSummary } from './replay-range-summary.js';

/** Options of {@link runReplayExperiment}. */
export interface ReplayExperimentOptions {
  /**
   * A shipped strategy's name (made with `tier`, disposed at the end), or a strategy of your own
   * (yours to dispose; `tier` is then only the tier reported until a dispatch names its own).
   */
  readonly strategy: string | SnapshotStrategy;
  readonly tier: StagingTierChoice;
  readonly footprintBytes: number;
  readonly writeFraction: number;
  readonly dispatches: number;
  readonly passes: number;
  readonly verify: VerifyMode;
  readonly quiesce?: 'queue' | 'agent';
  readonly hostBytesLimit?: number;
  readonly reuse?: 'pooled' | 'per-dispatch';
  /** Replay on every agent of the runtime at once (each its own queue and workload, one shared engine and host budget). Default: the first agent only. */
  readonly allAgents?: boolean;
  /**
   * Replay ranges of this many consecutive dispatches (on one queue) as one unit each, through
   * `engine.dispatchRange` (the last range may be shorter), with `timingPasses`, so that each
   * dispatch of a range reports its device time per pass. Default: each dispatch on its own.
   */
  readonly range?: number;
  /** Called after each dispatch (with `range`: after each range, with its last dispatch's index), for progress. */
  readonly onDispatch?: (index: number, result: DispatchResult) => void;
}

/** What one agent did in an experiment. */
export interface AgentReplayResult {
  readonly agentId: number;
  readonly bytesCopied: number;
  readonly seconds: number;
  /** Bytes copied over the agent's wall time. */
  readonly bytesPerSecond: number;
  readonly replayedDispatches: number;
}

/** What a replay experiment measured. */
export interface ReplayExperimentResult {
  readonly driver: string;
  readonly strategy: string;
  readonly tier: string;
  /** Dispatches per agent. */
  readonly dispatches: number;
  readonly passes: number;
  /** Dispatches per range (`range` option); null when each dispatch was replayed on its own. */
  readonly range: number | null;
  /** With `range`: every range, in order (per agent), with its bytes, passes, timings and per-dispatch values; empty otherwise. */
  readonly ranges: readonly ReplayRangeSummary[];
  /** Footprint per agent. */
  readonly footprintBytes: number;
  /** Bytes copied, all directions, all dispatches, all agents. */
  readonly bytesCopied: number;
  /** agents x dispatches x footprintBytes x passes: what the reference design copies. */
  readonly bytesModel: number;
  readonly bytesHashed: number;
  readonly bytes: ByteAccount;
  /** The most host RAM staging held at once, across all agents. */
  readonly hostHighWaterBytes: number;
  /** The host limit staging shared: the one given, else what this machine holds beside the runtime (null: none). */
  readonly hostBytesLimit: number | null;
  /** Per agent; several when `allAgents` ran them at once. */
  readonly agents: readonly AgentReplayResult[];
  /** Bytes copied by all agents over the experiment's wall time. */
  readonly aggregateBytesPerSecond: number;
  /** The process's peak resident set. */
  readonly processPeakRssBytes: number;
  readonly seconds: number;
  readonly replayedDispatches: number;
  /** The reason of each declined dispatch, in order. */
  readonly declined: readonly string[];
  /** How many dispatches (with `range`: ranges) were declined, by decline code (absent codes: none). */
  readonly declinedByReason: Readonly<Partial<Record<DeclineCode, number>>>;
  /** How many dispatches (with `range`: ranges) came to each verification status (`not-run`: declined, one pass, or verification off). */
  readonly verification: VerificationTally;
  /**
   * What the dispatches prove together: false when a replayed dispatch failed verification (a
   * mismatch); true when some were verified and none failed or was left incomplete; null when
   * nothing was proven (no dispatch verified: verification off, every dispatch declined, one pass;
   * or a verification could not be completed).
   */
  readonly verified: boolean | null;
  readonly notes: readonly string[];
}

/**
 * Runs the default scatter workload through the replay engine on the first agent of `runtime` (or,
 * with `allAgents`, on every agent at once, under one host budget) and reports what it copied,
 * hashed and held.
 * @throws ArgumentError for bad options.
 */
export async function runReplayExperiment(runtime: Runtime, options: ReplayExperimentOptions): Promise<ReplayExperimentResult> {
  const range = options.range;
  if (range !== undefined && (!Number.isSafeInteger(range) || range < 1)) {
    throw benchArgumentError('replay-experiment', 'range', `range must be a whole number >= 1, got ${String(range)}`, 'Pass how many consecutive dispatches each range replays, or leave it out');
  }
  const agents = options.allAgents ? runtime.agents : runtime.agents.slice(0, 1);
  // Disposed when the function returns or throws, after the finally below: strategy, staging, tracker.
  using tracker = createTracker(runtime);
  using staging = createStaging(runtime, tracker, { hostBytesLimit: options.hostBytesLimit, reuse: options.reuse });
  using shipped = typeof options.strategy === 'string' ? strategyByName(options.strategy, { tier: options.tier }) : undefined;
  const strategy = shipped ?? (options.strategy as SnapshotStrategy);
  const workloads: ScatterWorkload[] = [];
  const queues: Queue[] = [];
  const engine = createReplayEngine({
    runtime,
    tracker,
    staging,
    strategy,
    passes: range === undefined ? fixedPasses(options.passes) : timingPasses(options.passes),
    quiesce: options.quiesce ?? 'queue',
    verify: options.verify,
  });
  let bytes = emptyByteAccount();
  let verification = emptyVerificationTally();
  let tier = options.tier as string;
  const declined: string[] = [];
  const declinedByReason: Partial<Record<DeclineCode, number>> = {};
  const notes = new Set<string>();
  const ranges: ReplayRangeSummary[] = [];
  try {
    for (const agent of agents) {
      workloads.push(await createScatterWorkload(agent, options));
      queues.push(agent.createQueue());
    }
    const start = process.hrtime.bigint();
    const perAgent = await Promise.all(
      agents.map(async (agent, agentIndex): Promise<AgentReplayResult> => {
        const agentStart = process.hrtime.bigint();
        let agentBytes = 0;
        let replayedDispatches = 0;
        const step = range ?? 1;
        for (let index = 0; index < options.dispatches; index += step) {
          const count = Math.min(step, options.dispatches - index);
          const queue = queues[agentIndex]!;
          let result: DispatchResult;
          if (range === undefined) {
            const { kernel, args } = workloads[agentIndex]!.dispatch(index);
            result = await engine.dispatch({ queue, kernel, args });
          } else {
            const dispatches: RangeDispatch[] = Array.from({ length: count }, (_, offset) => workloads[agentIndex]!.dispatch(index + offset));
            const ranged = await engine.dispatchRange({ queue, dispatches });
            ranges.push(summarizeRange(agent.id, index, ranged));
            result = ranged;
          }
          bytes = addByteAccounts(bytes, result.bytes);
          agentBytes += bytesCopied(result.bytes);
          if (result.replayed) replayedDispatches += count;
          if (result.declineReason) declined.push(result.declineReason);
          if (result.declineCode) declinedByReason[result.declineCode] = (declinedByReason[result.declineCode] ?? 0) + 1;
          if (result.tier) tier = result.tier;
          verification = addToVerificationTally(verification, result);
          result.notes.forEach((note) => notes.add(note));
          if (agentIndex === 0) options.onDispatch?.(index + count - 1, result);
        }
        const seconds = secondsSince(agentStart);
        return { agentId: agent.id, bytesCopied: agentBytes, seconds, bytesPerSecond: agentBytes / seconds, replayedDispatches };
      }),
    );
    const seconds = secondsSince(start);
    const footprintBytes = workloads[0]!.footprintBytes;
    return {
      driver: runtime.driver,
      strategy: strategy.name,
      tier,
      dispatches: options.dispatches,
      passes: options.passes,
      range: range ?? null,
      ranges,
      footprintBytes,
      bytesCopied: bytesCopied(bytes),
      bytesModel: agents.length * options.dispatches * footprintBytes * options.passes,
      bytesHashed: bytes.hashed,
      bytes,
      hostHighWaterBytes: staging.usage().hostHighWaterBytes,
      hostBytesLimit: staging.usage().hostBytesLimit,
      agents: perAgent,
      aggregateBytesPerSecond: bytesCopied(bytes) / seconds,
      processPeakRssBytes: process.resourceUsage().maxRSS * 1024,
      seconds,
      replayedDispatches: perAgent.reduce((sum, agent) => sum + agent.replayedDispatches, 0),
      declined,
      declinedByReason,
      verification,
      verified: verifiedOfTally(verification),
      notes: [...notes],
    };
  } finally {
    for (const queue of queues) await queue.dispose();
    await engine.dispose();
    workloads.forEach((workload) => workload.free());
  }
}
