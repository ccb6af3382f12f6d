import type { Agent } from '../runtime/agent.js';
import { DisposedError } from '../errors/disposed-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { loadBinding } from '../addon/load-binding.js';
import type { NativeProfiler, NativeProfilerPlan } from '../addon/native-binding.js';
import { profilerFailure as failureError } from './profiler-failure.js';
import { nativeQueueOf, Queue } from '../queue/queue.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { ProfilerInstructionCache, ProfilerL2Flush, ProfilerRange } from '../runtime/runtime-types.js';
import { argumentError, requireArray, requireChoice, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';

const component = 'profiler';
/** The most dispatches one pass of a range may run (CUPTI sizes its counter data for each). */
const maxDispatchesPerPass = 10_000;

/** What a list of metrics needs on a chip, from CUPTI's host API. */
export interface ProfilerPlan {
  /** CUPTI's chip name, e.g. `GH100`. */
  readonly chip: string;
  /** How many passes (runs of the dispatch) collect every metric; 1 needs no replay. */
  readonly passCount: number;
  /** Bytes of CUPTI's config image. */
  readonly configImageBytes: number;
  /** Each metric's unit as CUPTI names it (`nanosecond`, `percent`, ...), in metric order. */
  readonly units: readonly string[];
}

/** What the profiler measured for one window: one dispatch, or a sequence of them (a range). */
export interface ProfilerResult {
  /** Which window of the session, from 1. */
  readonly dispatch: number;
  /** Each metric's value, by name (of the window's first dispatch). */
  readonly values: Readonly<Record<string, number>>;
  /** Each dispatch's values, in the window's order (one entry for a single dispatch). */
  readonly dispatches: readonly Readonly<Record<string, number>>[];
}

/**
 * What the L2 holds when a dispatch of a range starts: `all` (default) flushes it before every
 * dispatch, as Nsight Compute's `--cache-control all` does; `none` flushes it only at the start of
 * each pass, so each later dispatch sees the cache the earlier ones left, as in the program.
 */
export type ProfilerCacheControl = 'all' | 'none';

/** What a session measures and does around each pass, fixed when it is created. */
interface SessionConditions {
  readonly range: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly l2Flush: ProfilerL2Flush;
  readonly instructionCache: ProfilerInstructionCache;
}

/** What the passes of one window run, given on pass 1. */
export interface ProfilerPassScope {
  /** Dispatches in each pass (default 1); with more, bracket each with beginDispatch and endDispatch. */
  readonly dispatches?: number;
}

function requireMetrics(value: unknown): readonly string[] {
  const metrics = requireArray(component, 'metrics', value);
  if (metrics.length === 0 || metrics.some((metric) => typeof metric !== 'string' || !/^[A-Za-z0-9_.:]+$/.test(metric))) {
    throw argumentError(component, 'metrics', 'metrics must be a non-empty array of metric names such as gpu__time_duration.sum', 'Pass the names ncu --query-metrics lists');
  }
  return [...new Set(metrics as string[])];
}


/**
 * What `metrics` need on `chip` (e.g. `GH100`: passes, config image, units), computed by CUPTI's host
 * API without a device.
 * @throws {ArgumentError} (as a rejection) for an empty or malformed metric list.
 * @throws {UnsupportedError} (as a rejection) when libcupti.so cannot be loaded.
 * @throws {DriverError} (as a rejection) for an unknown chip or metric, e.g. code `CUPTI_ERROR_INVALID_METRIC_NAME`.
 */
export async function planCuptiMetrics(options: { readonly chip: string; readonly metrics: readonly string[] }): Promise<ProfilerPlan> {
  const given = requireObject(component, 'options', options);
  requireKnownKeys(component, 'options', given, ['chip', 'metrics']);
  if (typeof given['chip'] !== 'string' || given['chip'] === '') throw argumentError(component, 'chip', 'chip must be a chip name such as GH100', 'Pass the chip CUPTI names');
  const planned = await loadBinding().planCuptiMetrics(given['chip'], requireMetrics(given['metrics']));
  if ('code' in planned) throw failureError(planned, 'cuda', null, 'planning metrics');
  return Object.freeze({ ...planned, units: Object.freeze([...planned.units]) });
}

/**
 * Hardware counters of one agent for `metrics`, collected in user replay (CUPTI's range profiler on
 * the cuda driver, one range per dispatch: its kernel, or a user range around it): the caller runs the dispatch
 * {@link ProfilerSession.passCount} times, restoring memory between runs, and brackets each run with
 * {@link beginPass} and {@link endPass} on the dispatch's queue. Each pass starts with an idle device
 * context, the L2 as {@link l2Flush} leaves it and the instruction caches as {@link instructionCache}
 * says. From {@link Profilers.createSession}.
 */
export class ProfilerSession implements AsyncDisposable {
  readonly agent: Agent;
  readonly metrics: readonly string[];
  /** What each pass measures: the dispatch's kernel, or a range around the dispatch. */
  readonly range: ProfilerRange;
  /** Whether the L2 is flushed before every dispatch of a range. */
  readonly cacheControl: ProfilerCacheControl;
  /** How the L2 is flushed. */
  readonly l2Flush: ProfilerL2Flush;
  /** What becomes of the instruction caches before each pass. */
  readonly instructionCache: ProfilerInstructionCache;
  readonly #core: RuntimeCore;
  readonly #native: NativeProfiler;
  readonly #plan: NativeProfilerPlan;
  #disposal: Promise<void> | undefined;
  /** Dispatches per pass of the window begun last. */
  #dispatches = 1;

  /** @internal Made by {@link Profilers.createSession}. */
  constructor(core: RuntimeCore, agent: Agent, metrics: readonly string[], options: SessionConditions, native: NativeProfiler) {
    this.#core = core;
    this.agent = agent;
    this.metrics = Object.freeze([...metrics]);
    this.range = options.range;
    this.cacheControl = options.cacheControl;
    this.l2Flush = options.l2Flush;
    this.instructionCache = options.instructionCache;
    this.#native = native;
    this.#plan = native.plan();
  }

  /** How many passes collect every metric; 1 means the dispatch needs no replay. */
  get passCount(): number {
    return this.#plan.passCount;
  }

  /** The plan: chip, passes, config image size, units. */
  get plan(): ProfilerPlan {
    return { ...this.#plan, units: [...this.#plan.units] };
  }

  /**
   * Enqueues the start of pass `pass` (1-based) on `queue`, right before the dispatch's kernel: L2
   * flush, wait for an idle context, and on pass 1 the range profiler's setup. Returns at once. A pass
   * begun again (after a failed restore) is collected again. `scope.dispatches` (read on pass 1,
   * default 1) runs a range: that many dispatches in each pass, each bracketed by
   * {@link beginDispatch} and {@link endDispatch}, each its own CUPTI range, all in one pass.
   * @throws {ArgumentError} for a queue of another agent, a pass outside 1..passCount or a bad scope.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  beginPass(queue: Queue, pass: number, scope?: ProfilerPassScope): void {
    const native = this.#queue(queue, 'beginPass()');
    const checked = this.#pass(pass);
    if (checked === 1) this.#dispatches = requireInteger(component, 'scope.dispatches', scope?.dispatches ?? 1, 1, maxDispatchesPerPass);
    this.#native.beginPass(native, checked, this.#dispatches, this.cacheControl === 'all');
  }

  /**
   * In a range: enqueues what goes right before dispatch `index` (0-based) of pass `pass` on
   * `queue` (the L2 flush with cache control `all`; the user range's push with range `dispatch`).
   * @throws {ArgumentError} for a queue of another agent, a pass outside 1..passCount or an index outside the range.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  beginDispatch(queue: Queue, pass: number, index: number): void {
    this.#native.beginDispatch(this.#queue(queue, 'beginDispatch()'), this.#pass(pass), this.#index(index));
  }

  /**
   * In a range: enqueues what goes right after dispatch `index` of pass `pass` (the user range's pop).
   * @throws {ArgumentError} for a queue of another agent, a pass outside 1..passCount or an index outside the range.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  endDispatch(queue: Queue, pass: number, index: number): void {
    this.#native.endDispatch(this.#queue(queue, 'endDispatch()'), this.#pass(pass), this.#index(index));
  }

  /**
   * Enqueues the end of pass `pass` on `queue`, right after the dispatch's kernel; after the last
   * pass, the decode of the dispatch's counters. Returns at once.
   * @throws {ArgumentError} for a queue of another agent or a pass outside 1..passCount.
   * @throws {DisposedError} when the session, queue or runtime was disposed.
   */
  endPass(queue: Queue, pass: number): void {
    this.#native.endPass(this.#queue(queue, 'endPass()'), this.#pass(pass));
  }

  /**
   * The values of the last dispatch whose last pass the queue has run (synchronize the queue first),
   * or null before the first.
   * @throws {DriverError} when that dispatch's collection failed (its code names the CUPTI error).
   * @throws {DisposedError} when the session was disposed.
   */
  lastResult(): ProfilerResult | null {
    this.#assertLive('lastResult()');
    const result = this.#native.result();
    if (result.dispatch === 0) return null;
    if (result.error !== null) throw failureError(result.error, this.#core.driver, this.agent.id, result.error.operation);
    const named = (row: readonly number[]) => Object.fromEntries(this.metrics.map((metric, index) => [metric, row[index]!]));
    return { dispatch: result.dispatch, values: named(result.values), dispatches: result.dispatchValues.map(named) };
  }

  /**
   * Waits for `queue` (the queue of the last pass), then returns the last dispatch's values.
   * @throws {DriverError} (as a rejection) when the queue or the collection failed, or no dispatch finished.
   */
  async decode(queue: Queue): Promise<ProfilerResult> {
    this.#assertLive('decode()');
    await queue.synchronize();
    const result = this.lastResult();
    if (result === null) {
      throw failureError({ code: 'no-dispatch', message: 'no dispatch has run its last pass on this session yet' }, this.#core.driver, this.agent.id, 'decode');
    }
    return result;
  }

  /** Stops profiling and frees the session's device memory. Idempotent. */
  dispose(): Promise<void> {
    this.#disposal ??= this.#core.disposed ? Promise.resolve() : this.#native.release();
    return this.#disposal;
  }

  /** Same as {@link dispose}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #assertLive(call: string): void {
    this.#core.assertLive(component, `ProfilerSession.${call}`);
    if (this.#disposal) {
      throw new DisposedError({ packageName: 'native', component, objectName: 'ProfilerSession', message: nativeMessage(component, `${call} was called on a disposed profiler session`, 'Create a new one with runtime.profiler.createSession()') });
    }
  }

  #queue(queue: Queue, call: string) {
    this.#assertLive(call);
    const native = queue instanceof Queue ? nativeQueueOf(queue) : undefined;
    if (native === undefined || queue.agent !== this.agent || !this.#core.queues.has(queue)) {
      throw argumentError(component, 'queue', `${call} needs a live queue of agent ${this.agent.id}`, "Pass the dispatch's queue");
    }
    return native;
  }

  #pass(pass: number): number {
    return requireInteger(component, 'pass', pass, 1, this.#plan.passCount);
  }

  #index(index: number): number {
    return requireInteger(component, 'index', index, 0, this.#dispatches - 1);
  }
}

/**
 * The counter profiler of a runtime (`runtime.profiler`): on the cuda driver, CUPTI's range profiler
 * (libcupti.so, loaded at first use). Absent on drivers without one.
 */
export class Profilers {
  readonly #core: RuntimeCore;
  readonly #agents: readonly Agent[];
  #reason: string | null | undefined;

  /** @internal Made by the Runtime of a driver that has a profiler. */
  constructor(core: RuntimeCore, agents: readonly Agent[]) {
    this.#core = core;
    this.#agents = agents;
  }

  /**
   * Why counters cannot be collected in this process (e.g. `libcupti.so was not found (...)`), or null.
   * @throws {DisposedError} when the runtime was disposed.
   */
  unavailableReason(): string | null {
    this.#core.assertLive(component, 'runtime.profiler.unavailableReason()');
    if (this.#reason === undefined) this.#reason = this.#core.native.profilerUnavailableReason();
    return this.#reason;
  }

  /**
   * The chip CUPTI knows agent `agentId` (default 0) by, e.g. `GH100`: what {@link planCuptiMetrics}
   * and {@link queryCuptiMetrics} take.
   * @throws {ArgumentError} for an agent that does not exist.
   * @throws {UnsupportedError} when CUPTI cannot be loaded.
   * @throws {DriverError} when CUPTI cannot name the device's chip.
   * @throws {DisposedError} when the runtime was disposed.
   */
  chipName(agentId = 0): string {
    this.#core.assertLive(component, 'runtime.profiler.chipName()');
    const agent = requireInteger(component, 'agentId', agentId, 0, this.#agents.length - 1);
    const chip = this.#core.native.profilerChipName(agent);
    if (typeof chip !== 'string') throw failureError(chip, this.#core.driver, agent, 'naming the chip');
    return chip;
  }

  /**
   * A profiler session for `metrics` on agent `agentId` (default 0), each pass measuring `range`
   * (default `kernel`, as Nsight Compute does; see {@link ProfilerRange}), with the L2 flushed as
   * `l2Flush` says (default `write-discard`) and the instruction caches as `instructionCache` says
   * (default `evict`): CUPTI's plan (config image, passes) is computed off the JavaScript thread, and
   * the session holds an L2-flush buffer twice the L2's size.
   * @throws {ArgumentError} (as a rejection) for bad options.
   * @throws {UnsupportedError} (as a rejection) when CUPTI cannot be loaded.
   * @throws {DriverError} (as a rejection) for an unknown metric or a device CUPTI cannot profile.
   */
  async createSession(options: {
    readonly agentId?: number;
    readonly metrics: readonly string[];
    readonly range?: ProfilerRange;
    readonly cacheControl?: ProfilerCacheControl;
    readonly l2Flush?: ProfilerL2Flush;
    readonly instructionCache?: ProfilerInstructionCache;
  }): Promise<ProfilerSession> {
    this.#core.assertLive(component, 'runtime.profiler.createSession()');
    const given = requireObject(component, 'options', options);
    requireKnownKeys(component, 'options', given, ['agentId', 'metrics', 'range', 'cacheControl', 'l2Flush', 'instructionCache']);
    const agentId = requireInteger(component, 'options.agentId', given['agentId'] ?? 0, 0, this.#agents.length - 1);
    const metrics = requireMetrics(given['metrics']);
    const conditions: SessionConditions = {
      range: requireChoice(component, 'options.range', given['range'] ?? 'kernel', ['kernel', 'dispatch'] as const),
      cacheControl: requireChoice(component, 'options.cacheControl', given['cacheControl'] ?? 'all', ['all', 'none'] as const),
      l2Flush: requireChoice(component, 'options.l2Flush', given['l2Flush'] ?? 'write-discard', ['write-discard', 'read', 'none'] as const),
      instructionCache: requireChoice(component, 'options.instructionCache', given['instructionCache'] ?? 'evict', ['evict', 'keep'] as const),
    };
    const created = await this.#core.native.createProfiler(agentId, metrics, conditions.range, conditions.l2Flush, conditions.instructionCache);
    if ('code' in created) throw failureError(created, this.#core.driver, agentId, 'creating a profiler session');
    return new ProfilerSession(this.#core, this.#agents[agentId]!, metrics, conditions, created);
  }
}
