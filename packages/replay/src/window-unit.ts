import type { KernelDescriptor, Queue } from '@kreplay/native';
import type { DispatchContext } from '@kreplay/snapshot';
import type { ArgumentResolution } from '@kreplay/tracker';
import type { Decline } from './decline.js';
import type { EngineDispatchRequest } from './dispatch-request.js';
import type { DispatchResult } from './dispatch-result.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import type { PassProvider } from './pass-provider.js';
import type { WindowPhase } from './window-phase.js';
import type { WindowTarget } from './window-phases.js';

/** What a unit reaches, resolved when its window is prepared. */
export interface WindowReach {
  /** What the whole unit reaches: its lock claim, its verification targets, the strategy's resolution. */
  readonly resolution: ArgumentResolution;
  /** A decline that needs no snapshot (graph, cross-device, unresolved pointers, memory changed). */
  readonly decline: Decline | undefined;
}

/** What the passes collected for the unit: `whole` is the result's `collected`. */
export interface WindowCollected {
  readonly whole: { readonly value: unknown } | undefined;
}

/**
 * What one replay window runs: a single dispatch, a range of dispatches replayed as one unit, or a
 * graph launch.
 * The window's outline (quiesce, prepare, claim, window or run once, account, release; see
 * `runWindow`) is the same for both; a unit says only what differs: how it resolves and declines,
 * how the strategy sees it, what one pass enqueues, and what the passes collect.
 */
export interface WindowUnit<Reach extends WindowReach, Collected extends WindowCollected, Result extends DispatchResult> {
  /** The queue the whole window runs on. */
  readonly queue: Queue;
  /** The dispatch the pass provider is asked the pass count with (a range's first; a graph launch's request). */
  readonly first: EngineDispatchRequest;
  /** Names the unit in the result's notes (a range: its kernels). */
  readonly kernel: KernelDescriptor;
  /**
   * Resolves the unit's arguments and checks the declines that need no snapshot.
   * @throws {ArgumentError} when the tracker refuses the arguments, or the unit cannot run at all.
   */
  reach(engine: ResolvedEngineOptions): Reach;
  /** The unit as the strategy's `prepare` sees it. */
  strategyContext(engine: ResolvedEngineOptions, reach: Reach): DispatchContext;
  /** The reason a strategy gave for declining, as the result says it. */
  snapshotDeclineReason(reason: string): string;
  /** The phase of pass `pass` (1-based): the provider's hooks around what the unit enqueues. */
  passPhase(target: WindowTarget, pass: number): WindowPhase;
  /**
   * Calls the provider's collect hook with the passes that ran to their end.
   * @throws {ReplayPluginError} when the hook throws or breaks its contract.
   */
  collect(provider: PassProvider, queue: Queue, phases: readonly WindowPhase[]): Collected;
  /** The unit's result: the window's result, with what is the unit's own added. */
  shape(result: DispatchResult, collected: Collected): Result;
}
