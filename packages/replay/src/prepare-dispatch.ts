import type { Snapshot } from '@kreplay/snapshot';
import type { ArgumentResolution } from '@kreplay/tracker';
import { checkPreparation } from './check-preparation.js';
import { declineBeforePreparing, snapshotDeclined, type Decline } from './decline.js';
import { isGraphRequest, type DispatchRequest, type EngineDispatchRequest } from './dispatch-request.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import { graphUnit } from './graph-dispatch.js';
import type { KernelArguments, KernelDescriptor } from '@kreplay/native';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { requirePassCount } from './validate.js';

/** What a dispatch will do, decided before anything is enqueued. */
export interface DispatchPlan {
  /** The kernel, or a descriptor naming the graph of a graph launch. */
  readonly kernel: KernelDescriptor;
  /** The kernel's arguments (none for a graph launch). */
  readonly args: KernelArguments;
  readonly passesRequested: number;
  /** The tracker's resolution of the arguments, made once for the whole window. */
  readonly resolution: ArgumentResolution;
  /** Why the dispatch runs once instead of replayed (absent when it is replayed or has one pass). */
  readonly decline: Decline | undefined;
  /** The strategy's snapshot, when the dispatch is replayed (staging already leased: release it). */
  readonly snapshot: Snapshot | undefined;
}

/**
 * Asks the provider for the pass count, resolves the arguments once (a graph launch: every step,
 * merged), checks the declines that need no snapshot (graph flag, cross-device, unresolved
 * pointers), then asks the strategy to prepare (only with more than one pass).
 * @throws {ReplayPluginError} when the provider or the strategy throws or breaks its contract.
 * @throws {ArgumentError} when the tracker refuses the arguments.
 */
export function prepareDispatch(engine: ResolvedEngineOptions, request: EngineDispatchRequest): DispatchPlan {
  const { queue } = request;
  const agent = queue.agent;
  const provider: PluginIdentity = { kind: 'pass provider', name: engine.passes.name };
  const strategy: PluginIdentity = { kind: 'strategy', name: engine.strategy.name };
  const passesRequested = runPluginHook(provider, 'passCount', () =>
    requirePassCount('pass provider', engine.passes.passCount(request), `the pass count of provider "${provider.name}"`),
  );
  const graph = isGraphRequest(request) ? graphUnit(engine.tracker, request.graph) : undefined;
  const kernel = graph?.kernel ?? (request as { kernel: KernelDescriptor }).kernel;
  const args = graph?.args ?? (request as { args: KernelArguments }).args;
  const resolution = graph?.resolution ?? engine.tracker.resolveArguments(agent.id, kernel, args);
  const decline = declineBeforePreparing(graph === undefined ? (request as DispatchRequest) : { kernel, crossDevice: request.crossDevice }, resolution);
  if (decline !== undefined || passesRequested === 1) return { kernel, args, passesRequested, resolution, decline, snapshot: undefined };
  const context = { runtime: engine.runtime, agent, queue, kernel, args, tracker: engine.tracker, resolution, staging: engine.staging, ...(graph && { dispatches: graph.dispatches }) };
  const preparation = runPluginHook(strategy, 'prepare', () => checkPreparation(engine.strategy.prepare(context)));
  return preparation.kind === 'declined'
    ? { kernel, args, passesRequested, resolution, decline: snapshotDeclined(strategy.name, preparation.reason), snapshot: undefined }
    : { kernel, args, passesRequested, resolution, decline: undefined, snapshot: preparation.snapshot };
}
