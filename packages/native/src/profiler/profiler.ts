import { DisposedError } from '../errors/disposed-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { loadBinding } from '../addon/load-binding.js';
import type { NativeProfiler, NativeProfilerPlan } from '../addon/native-binding.js';
import { profilerFailure as failureError } from './profiler-failure.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { Agent, ProfilerSession, Profilers, Queue } from '../runtime/runtime-objects.js';
import type { ProfilerCacheControl, ProfilerPassScope, ProfilerPlan, ProfilerResult, ProfilerSessionOptions } from './profiler-types.js';
import type { ProfilerInstructionCache, ProfilerL2Flush, ProfilerRange } from '../runtime/runtime-types.js';
import { argumentError, requireArray, requireChoice, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';

const component = 'profiler';
/** The most dispatches one pass of a range may run (CUPTI sizes its counter data for each). */
const maxDispatchesPerPass = 10_000;

/** What a session measures and does around each pass, fixed when it is created. */
interface SessionConditions {
  readonly range: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly l2Flush: ProfilerL2Flush;
  readonly instructionCache: ProfilerInstructionCache;
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

/** A {@link ProfilerSession} over the addon's profiler (runtime-objects.ts describes each member). @internal */
export class ProfilerSessionHandle implements ProfilerSession {
  readonly agent: Agent;
  readonly metrics: readonly string[];
  readonly range: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly l2Flush: ProfilerL2Flush;
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

  get passCount(): number {
    return this.#plan.passCount;
  }

  get plan(): ProfilerPlan {
    return { ...this.#plan, units: [...this.#plan.units] };
  }

  beginPass(queue: Queue, pass: number, scope?: ProfilerPassScope): void {
    const native = this.#queue(queue, 'beginPass()');
    const checked = this.#pass(pass);
    if (checked === 1) this.#dispatches = requireInteger(component, 'scope.dispatches', scope?.dispatches ?? 1, 1, maxDispatchesPerPass);
    this.#native.beginPass(native, checked, this.#dispatches, this.cacheControl === 'all');
  }

  beginDispatch(queue: Queue, pass: number, index: number): void {
    this.#native.beginDispatch(this.#queue(queue, 'beginDispatch()'), this.#pass(pass), this.#index(index));
  }

  endDispatch(queue: Queue, pass: number, index: number): void {
    this.#native.endDispatch(this.#queue(queue, 'endDispatch()'), this.#pass(pass), this.#index(index));
  }

  endPass(queue: Queue, pass: number): void {
    this.#native.endPass(this.#queue(queue, 'endPass()'), this.#pass(pass));
  }

  lastResult(): ProfilerResult | null {
    this.#assertLive('lastResult()');
    const result = this.#native.result();
    if (result.dispatch === 0) return null;
    if (result.error !== null) throw failureError(result.error, this.#core.driver, this.agent.id, result.error.operation);
    const named = (row: readonly number[]) => Object.fromEntries(this.metrics.map((metric, index) => [metric, row[index]!]));
    return { dispatch: result.dispatch, values: named(result.values), dispatches: result.dispatchValues.map(named) };
  }

  async decode(queue: Queue): Promise<ProfilerResult> {
    this.#assertLive('decode()');
    await queue.synchronize();
    const result = this.lastResult();
    if (result === null) {
      throw failureError({ code: 'no-dispatch', message: 'no dispatch has run its last pass on this session yet' }, this.#core.driver, this.agent.id, 'decode');
    }
    return result;
  }

  dispose(): Promise<void> {
    this.#disposal ??= this.#core.disposed ? Promise.resolve() : this.#native.release();
    return this.#disposal;
  }

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
    const native = this.#core.nativeQueues.get(queue);
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

/** The {@link Profilers} of a runtime whose driver has them (runtime-objects.ts describes each member). @internal */
export class ProfilersHandle implements Profilers {
  readonly #core: RuntimeCore;
  readonly #agents: readonly Agent[];
  #reason: string | null | undefined;

  /** @internal Made by the Runtime of a driver that has a profiler. */
  constructor(core: RuntimeCore, agents: readonly Agent[]) {
    this.#core = core;
    this.#agents = agents;
  }

  unavailableReason(): string | null {
    this.#core.assertLive(component, 'runtime.profiler.unavailableReason()');
    if (this.#reason === undefined) this.#reason = this.#core.native.profilerUnavailableReason();
    return this.#reason;
  }

  chipName(agentId = 0): string {
    this.#core.assertLive(component, 'runtime.profiler.chipName()');
    const agent = requireInteger(component, 'agentId', agentId, 0, this.#agents.length - 1);
    const chip = this.#core.native.profilerChipName(agent);
    if (typeof chip !== 'string') throw failureError(chip, this.#core.driver, agent, 'naming the chip');
    return chip;
  }

  async createSession(options: ProfilerSessionOptions): Promise<ProfilerSession> {
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
    return new ProfilerSessionHandle(this.#core, this.#agents[agentId]!, metrics, conditions, created);
  }
}
