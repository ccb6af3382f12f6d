import type { Snapshot } from '@kreplay/snapshot';
import type { ArgumentResolution } from '@kreplay/tracker';
import { checkPreparation } from './check-preparation.js';
import { snapshotDeclined, type Decline } from './decline.js';
import type { DispatchResult } from './dispatch-result.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import { runPluginHook, type PluginIdentity } from './run-plugin-hook.js';
import { requirePassCount } from './validate.js';
import type { WindowCollected, WindowReach, WindowUnit } from './window-unit.js';

/** What a window will do, decided before anything is enqueued. */
export interface WindowPlan {
  readonly passesRequested: number;
  /** What the unit reaches, resolved once for the whole window. */
  readonly resolution: ArgumentResolution;
  /** Why the unit runs once instead of replayed (absent when it is replayed or has one pass). */
  readonly decline: Decline | undefined;
  /** The strategy's snapshot, when the unit is replayed (staging already leased: release it). */
  readonly snapshot: Snapshot | undefined;
}

/**
 * Asks the provider for the pass count (with the unit's first dispatch), resolves what the unit
 * reaches and checks the declines that need no snapshot, then asks the strategy to prepare (only
 * with more than one pass).
 * @throws {ReplayPluginError} when the provider or the strategy throws or breaks its contract.
 * @throws {ArgumentError} when the tracker refuses the arguments, or the unit cannot run at all.
 */
export function prepareWindow<Reach extends WindowReach, Collected extends WindowCollected, Result extends DispatchResult>(
  engine: ResolvedEngineOptions,
  unit: WindowUnit<Reach, Collected, Result>,
): WindowPlan {
  const provider: PluginIdentity = { kind: 'pass provider', name: engine.passes.name };
  const strategy: PluginIdentity = { kind: 'strategy', name: engine.strategy.name };
  const passesRequested = runPluginHook(provider, 'passCount', () =>
    requirePassCount('pass provider', engine.passes.passCount(unit.first), `the pass count of provider "${provider.name}"`),
  );
  const reach = unit.reach(engine);
  const { resolution, decline } = reach;
  if (decline !== undefined || passesRequested === 1) return { passesRequested, resolution, decline, snapshot: undefined };
  const context = unit.strategyContext(engine, reach);
  const preparation = runPluginHook(strategy, 'prepare', () => checkPreparation(engine.strategy.prepare(context)));
  return preparation.kind === 'declined'
    ? { passesRequested, resolution, decline: snapshotDeclined(strategy.name, unit.snapshotDeclineReason(preparation.reason)), snapshot: undefined }
    : { passesRequested, resolution, decline: undefined, snapshot: preparation.snapshot };
}
