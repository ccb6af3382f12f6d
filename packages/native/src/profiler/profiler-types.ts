import type { ProfilerInstructionCache, ProfilerL2Flush, ProfilerRange } from '../runtime/runtime-types.js';

/**
 * The plain types of the counter profiler: a plan, a result, cache control and a pass's scope.
 */

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

/** What the passes of one window run, given on pass 1. */
export interface ProfilerPassScope {
  /** Dispatches in each pass (default 1); with more, bracket each with beginDispatch and endDispatch. */
  readonly dispatches?: number;
}

/** What `runtime.profiler.createSession()` takes: the agent, the metrics, and what each pass measures and does. */
export interface ProfilerSessionOptions {
  readonly agentId?: number;
  readonly metrics: readonly string[];
  readonly range?: ProfilerRange;
  readonly cacheControl?: ProfilerCacheControl;
  readonly l2Flush?: ProfilerL2Flush;
  readonly instructionCache?: ProfilerInstructionCache;
}
