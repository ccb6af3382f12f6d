import type { KernelDescriptor } from '@kreplay/native';
import type { Snapshot } from '@kreplay/snapshot';
import { mergeResolutions, type ArgumentResolution } from '@kreplay/tracker';
import { checkPreparation } from './check-preparation.js';
import { declineBeforePreparing, snapshotDeclined, type Decline } from './decline.js';
import { resolveWithBefore } from './before-copies.js';
import type { DispatchRequest } from './dispatch-request.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { RangeDispatchRequest } from './range-request.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { replayArgumentError, requirePassCount } from './validate.js';

/** A range as the engine accepted it: its dispatches and their resolutions when it was requested. */
export interface AcceptedRange {
  readonly dispatches: readonly RangeDispatchRequest[];
  /** Each dispatch's arguments (and the destinations of its copies before) resolved when `dispatchRange()` was called. */
  readonly requested: readonly ArgumentResolution[];
}

/** What a range will do, decided before anything is enqueued. */
export interface RangePlan {
  readonly passesRequested: number;
  /** Each dispatch's resolution, made when the range's window is prepared. */
  readonly resolutions: readonly ArgumentResolution[];
  /** Their merge: what the whole sequence reaches. */
  readonly resolution: ArgumentResolution;
  readonly decline: Decline | undefined;
  /** The strategy's snapshot of the whole range, when it is replayed (staging leased: release it). */
  readonly snapshot: Snapshot | undefined;
}

/**
 * Resolves every dispatch's arguments when the range is requested (so malformed arguments reject
 * the call itself).
 * @throws {ArgumentError} when the tracker refuses a dispatch's arguments.
 */
export function acceptRange(engine: ResolvedEngineOptions, dispatches: readonly RangeDispatchRequest[]): AcceptedRange {
  const requested = dispatches.map((dispatch) => resolveDispatch(engine, dispatch));
  return { dispatches, requested };
}

/** A dispatch's arguments resolved, merged with the allocations its copies before write. */
function resolveDispatch(engine: ResolvedEngineOptions, { queue, kernel, args, before }: RangeDispatchRequest): ArgumentResolution {
  const agentId = queue.agent.id;
  return resolveWithBefore(engine.tracker, agentId, engine.tracker.resolveArguments(agentId, kernel, args), before);
}

/**
 * Plans a range's window: the pass count (asked with the first dispatch), each dispatch's
 * resolution again, the declines that need no snapshot (the first dispatch that calls for one
 * decides), then the strategy's snapshot of the whole sequence, seen as one dispatch context whose
 * resolution is the merge of all of them and whose `dispatches` lists each.
 *
 * A range is one list given up front and the engine enqueues its dispatches back to back, so the
 * program cannot allocate or free memory between them. What can change is the memory the list was
 * made for: between `dispatchRange()` and this window (the windows queued before it on the queue
 * run first) an allocation a dispatch reached may have been freed, or its address allocated again.
 * Then the list no longer describes the memory, and the range is declined (`allocations-changed`)
 * and runs once on the memory that is there now; when a pointer now lands in no live allocation at
 * all, it cannot run even once, and the range is refused.
 * @throws {ReplayPluginError} when the provider or the strategy throws or breaks its contract.
 * @throws {ArgumentError} when the tracker refuses the arguments, or a dispatch reaches memory freed
 * since the range was requested.
 */
export function prepareRange(engine: ResolvedEngineOptions, range: AcceptedRange): RangePlan {
  const { dispatches, requested } = range;
  const first = dispatches[0]!;
  const { queue } = first;
  const agent = queue.agent;
  const provider: PluginIdentity = { kind: 'pass provider', name: engine.passes.name };
  const strategy: PluginIdentity = { kind: 'strategy', name: engine.strategy.name };
  const passesRequested = runPluginHook(provider, 'passCount', () =>
    requirePassCount('pass provider', engine.passes.passCount(first), `the pass count of provider "${provider.name}"`),
  );
  const resolutions = dispatches.map((dispatch) => resolveDispatch(engine, dispatch));
  const resolution = mergeResolutions(resolutions);
  const decline = declineRange(dispatches, requested, resolutions);
  if (decline !== undefined || passesRequested === 1) return { passesRequested, resolutions, resolution, decline, snapshot: undefined };
  const context = {
    runtime: engine.runtime,
    agent,
    queue,
    kernel: first.kernel,
    args: first.args,
    tracker: engine.tracker,
    resolution,
    staging: engine.staging,
    dispatches: dispatches.map(({ kernel, args }, index) => ({ kernel, args, resolution: resolutions[index]! })),
  };
  const preparation = runPluginHook(strategy, 'prepare', () => checkPreparation(engine.strategy.prepare(context)));
  if (preparation.kind === 'ready') return { passesRequested, resolutions, resolution, decline: undefined, snapshot: preparation.snapshot };
  const reason = `${preparation.reason} (for a range of ${dispatches.length} dispatches)`;
  return { passesRequested, resolutions, resolution, decline: snapshotDeclined(strategy.name, reason), snapshot: undefined };
}

/** The first decline a dispatch of the range calls for, the dispatch named. */
/** @throws {ArgumentError} when a dispatch reaches memory freed since the range was requested. */
function declineRange(
  dispatches: readonly DispatchRequest[],
  requested: readonly ArgumentResolution[],
  resolutions: readonly ArgumentResolution[],
): Decline | undefined {
  for (let index = 0; index < dispatches.length; index += 1) {
    const dispatch = dispatches[index]!;
    const changed = changedAllocations(requested[index]!, resolutions[index]!);
    if (changed !== undefined && resolutions[index]!.unresolved.length > requested[index]!.unresolved.length) {
      throw replayArgumentError(
        'dispatch',
        'dispatches',
        `dispatch ${index} of the range of ${dispatches.length} cannot run: memory that kernel ${dispatch.kernel.name} reaches was freed after the range was requested (${changed})`,
        'Free memory only once the ranges that reach it have completed',
      );
    }
    const decline: Decline | undefined =
      changed === undefined
        ? declineBeforePreparing(dispatch, resolutions[index]!)
        : { code: 'allocations-changed', reason: `memory that kernel ${dispatch.kernel.name} reaches changed after the range was requested: ${changed}` };
    if (decline !== undefined) return { code: decline.code, reason: `dispatch ${index} of the range of ${dispatches.length}: ${decline.reason}` };
  }
  return undefined;
}

/** What changed between two resolutions of the same arguments, in words; undefined when they reach the same allocations. */
function changedAllocations(before: ArgumentResolution, after: ArgumentResolution): string | undefined {
  if (before === after) return undefined;
  const now = new Map(after.reached.map((reached) => [reached.allocation.id, reached]));
  for (const reached of before.reached) {
    if (!now.has(reached.allocation.id)) {
      const { id, address } = reached.allocation;
      return `allocation #${id} at 0x${address.toString(16)} (argument ${reached.parameters.map((name) => `"${name}"`).join(', ')}) was freed`;
    }
  }
  const then = new Set(before.reached.map((reached) => reached.allocation.id));
  const added = after.reached.find((reached) => !then.has(reached.allocation.id));
  if (added !== undefined) return `argument ${added.parameters.map((name) => `"${name}"`).join(', ')} now reaches allocation #${added.allocation.id}, made after the range was requested`;
  return undefined;
}

/** A descriptor naming the range, for notes about the sequence as a whole. */
export function rangeKernel(dispatches: readonly DispatchRequest[]): KernelDescriptor {
  const names = dispatches.map((dispatch) => dispatch.kernel.name);
  return {
    name: `range (${names.length > 4 ? `${names.slice(0, 4).join(', ')}, ... ${names.length} dispatches` : names.join(', ')})`,
    deterministic: dispatches.every((dispatch) => dispatch.kernel.deterministic),
    parameters: [],
  };
}
