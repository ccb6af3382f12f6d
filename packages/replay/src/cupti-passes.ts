import { DriverError, UnsupportedError } from '@kreplay/native';
import type { ProfilerRange, ProfilerSession, Queue, Runtime } from '@kreplay/native';
import type { PassProvider } from './pass-provider.js';
import { passProviderSpecificationVersion } from './pass-provider.js';
import { profileConditions } from './profile-conditions.js';
import type { ProfileConditions, ProfileConditionsInput } from './profile-conditions.js';
import { describeValue, replayArgumentError } from './validate.js';

/** Options of {@link cuptiPasses}. */
export interface CuptiPassesOptions {
  /** A runtime of the cuda driver. */
  readonly runtime: Runtime;
  /** CUPTI metric names, e.g. `gpu__time_duration.sum`, `dram__throughput.avg.pct_of_peak_sustained_elapsed`. */
  readonly metrics: readonly string[];
  /** The agents to profile (default: all); a dispatch on another agent runs once, with nothing collected. */
  readonly agentIds?: readonly number[];
  /**
   * What each pass measures: `kernel` (default), the dispatch's kernel as Nsight Compute measures it,
   * or `dispatch`, a user range pushed around the dispatch.
   */
  readonly range?: ProfilerRange;
  /**
   * What the profiler does around each pass (see {@link ProfileConditions}; those left out take
   * their defaults): the L2 flush, the instruction caches, cache control in a range, and warm runs,
   * unprofiled runs of each dispatch before its passes, restored like a pass (the first launch of a
   * kernel in a process pays costs a program that ran it before does not, and ncu profiles programs
   * in that steady state). `samples` is recorded for the caller, which profiles each dispatch that
   * many times.
   */
  readonly conditions?: ProfileConditionsInput;
}

/** What {@link cuptiPasses} collects for one dispatch. */
export interface CuptiCollected {
  /** CUPTI's chip name, e.g. `GH100`. */
  readonly chip: string;
  /** The passes CUPTI needs for the metrics (1: no replay). */
  readonly passes: number;
  /** Each metric's value; null when they could not be collected (see `error`). */
  readonly metrics: Readonly<Record<string, number>> | null;
  /** Each metric's unit (`nanosecond`, `percent`, ...). */
  readonly units: Readonly<Record<string, string>>;
  /** Why there are no values: e.g. the dispatch ran once (declined) or a pass failed, or a CUPTI error. */
  readonly error?: { readonly code: string; readonly message: string };
}

/** A pass provider whose `collect` returns {@link CuptiCollected}; dispose it to stop profiling. */
export interface CuptiPassProvider extends PassProvider, AsyncDisposable {
  collect(queue: Queue, completedPasses: readonly number[]): CuptiCollected;
  beginDispatch(pass: number, index: number, queue: Queue): void;
  endDispatch(pass: number, index: number, queue: Queue): void;
  /** One {@link CuptiCollected} per dispatch of a range: each dispatch is its own CUPTI range, all in one pass. */
  collectRange(queue: Queue, completedPasses: readonly number[], dispatches: number): readonly CuptiCollected[];
  /** The profiler sessions by agent id. */
  readonly sessions: ReadonlyMap<number, ProfilerSession>;
  /** The conditions every pass is profiled under, to be recorded with the counters. */
  readonly conditions: ProfileConditions;
  dispose(): Promise<void>;
}

/**
 * Real hardware counters per pass on NVIDIA: CUPTI's range profiler in user replay, one range per
 * dispatch: its kernel (CUPTI's automatic range, the default) or a user range pushed around it.
 * The number of passes is CUPTI's (from the metrics' config image); kreplay's snapshot restores
 * memory between passes, and each pass starts with an idle device, the L2 and the instruction
 * caches as `conditions` say (recorded in the provider's `conditions`).
 * Windows of one agent must not overlap (CUPTI profiles the whole context): run dispatches of one
 * agent one at a time, as the CLI and the bench do.
 * @throws {ArgumentError} (as a rejection) for options that are not a cuda runtime and metric names, or conditions {@link profileConditions} refuses.
 * @throws {UnsupportedError} (as a rejection) when CUPTI cannot be loaded.
 * @throws {DriverError} (as a rejection) for an unknown metric or a device CUPTI cannot profile.
 */
export async function cuptiPasses(options: CuptiPassesOptions): Promise<CuptiPassProvider> {
  const { runtime, metrics, range } = options ?? ({} as CuptiPassesOptions);
  const conditions = profileConditions(options?.conditions);
  const { warmRuns } = conditions;
  /** The CUPTI pass of engine pass `pass`, or undefined for a warm run. */
  const profiledPass = (pass: number): number | undefined => (pass > warmRuns ? pass - warmRuns : undefined);
  const profiler = runtime?.profiler;
  if (profiler === undefined) {
    if (runtime?.driver !== undefined && runtime.driver !== 'cuda') {
      throw new UnsupportedError({
        packageName: 'replay',
        component: 'cupti-passes',
        driver: runtime.driver,
        feature: 'counters',
        message: `[replay] [cupti-passes] CUPTI counters need the cuda driver, not ${runtime.driver}. Open the runtime with { driver: 'cuda' } on an NVIDIA GPU.`,
      });
    }
    throw replayArgumentError('cupti-passes', 'runtime', `runtime is ${describeValue(runtime)}, not a cuda Runtime`, "Pass the Runtime openRuntime({ driver: 'cuda' }) returned");
  }
  const agentIds = options.agentIds ?? runtime.agents.map((agent) => agent.id);
  const sessions = new Map<number, ProfilerSession>();
  try {
    for (const agentId of agentIds) {
      const { cacheControl, l2Flush, instructionCache } = conditions;
      sessions.set(agentId, await profiler.createSession({ agentId, metrics, ...(range === undefined ? {} : { range }), cacheControl, l2Flush, instructionCache }));
    }
  } catch (error) {
    await Promise.all([...sessions.values()].map((session) => session.dispose()));
    throw error;
  }
  const first = sessions.values().next().value as ProfilerSession;
  const names = first.metrics;
  /** The queue whose window a session's agent is in, so that two windows never overlap on one context. */
  const active = new Map<number, Queue>();
  const sessionOf = (queue: Queue) => sessions.get(queue.agent.id);
  const units = (session: ProfilerSession) => Object.fromEntries(names.map((name, index) => [name, session.plan.units[index] ?? '']));
  /** What the window on `queue` collected: every dispatch's values, or one failure for them all. */
  const collectWindow = (queue: Queue, completedPasses: readonly number[], dispatches: number): CuptiCollected[] => {
    const session = sessionOf(queue);
    if (active.get(queue.agent.id) === queue) active.delete(queue.agent.id);
    const each = (collected: CuptiCollected) => Array.from({ length: dispatches }, () => collected);
    if (session === undefined) {
      return each({ chip: '', passes: 1, metrics: null, units: {}, error: { code: 'not-profiled', message: `agent ${queue.agent.id} is not profiled` } });
    }
    const base = { chip: session.plan.chip, passes: session.passCount, units: units(session) };
    const profiled = completedPasses.map(profiledPass);
    const missing = Array.from({ length: session.passCount }, (_, index) => index + 1).filter((pass) => !profiled.includes(pass));
    if (missing.length > 0) {
      const message = `passes ${missing.join(', ')} of ${session.passCount} did not complete (the dispatch was declined and ran once, or a pass failed)`;
      return each({ ...base, metrics: null, error: { code: 'incomplete', message } });
    }
    try {
      const result = session.lastResult();
      if (result === null) return each({ ...base, metrics: null, error: { code: 'no-result', message: 'CUPTI produced no result' } });
      if (result.dispatches.length !== dispatches) {
        const message = `CUPTI returned values for ${result.dispatches.length} dispatches where the window ran ${dispatches}`;
        return each({ ...base, metrics: null, error: { code: 'range-count', message } });
      }
      return result.dispatches.map((values) => ({ ...base, metrics: values }));
    } catch (error) {
      if (error instanceof DriverError) return each({ ...base, metrics: null, error: { code: error.code, message: error.message } });
      throw error;
    }
  };
  const dispose = async () => {
    await Promise.all([...sessions.values()].map((session) => session.dispose()));
  };
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: `cupti(${names.join(',')})`,
    sessions,
    conditions,
    passCount: (dispatch) => {
      const session = sessionOf(dispatch.queue);
      return session === undefined ? 1 : warmRuns + session.passCount;
    },
    beginPass(pass, queue, scope) {
      const session = sessionOf(queue);
      if (session === undefined) return;
      const owner = active.get(queue.agent.id);
      if (pass === 1 && owner !== undefined && owner !== queue) {
        throw new Error(`[replay] [cupti-passes] queue ${queue.id} began a window while queue ${owner.id} of agent ${queue.agent.id} is in one. CUPTI profiles the whole context: dispatch on one queue of an agent at a time.`);
      }
      active.set(queue.agent.id, queue);
      const profiled = profiledPass(pass);
      if (profiled !== undefined) session.beginPass(queue, profiled, { dispatches: scope?.dispatches ?? 1 });
    },
    beginDispatch(pass, index, queue) {
      const profiled = profiledPass(pass);
      if (profiled !== undefined) sessionOf(queue)?.beginDispatch(queue, profiled, index);
    },
    endDispatch(pass, index, queue) {
      const profiled = profiledPass(pass);
      if (profiled !== undefined) sessionOf(queue)?.endDispatch(queue, profiled, index);
    },
    endPass(pass, queue) {
      const session = sessionOf(queue);
      if (session === undefined) return;
      const profiled = profiledPass(pass);
      if (profiled !== undefined) session.endPass(queue, profiled);
    },
    collect(queue, completedPasses) {
      return collectWindow(queue, completedPasses, 1)[0]!;
    },
    collectRange: collectWindow,
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
