import type { Runtime } from '@kreplay/native';
import { snapshotSpecificationVersion, type SnapshotStrategy, type Staging } from '@kreplay/snapshot';
import type { Tracker } from '@kreplay/tracker';
import { passProviderSpecificationVersion, type PassProvider } from './pass-provider.js';
import { describeValue, hasMethods, replayArgumentError } from './validate.js';
import type { VerifyMode } from './verification-report.js';

/** What the window waits for before it starts. */
export type QuiesceMode = 'queue' | 'agent';

/** Options of {@link createReplayEngine}. */
export interface ReplayEngineOptions {
  readonly runtime: Runtime;
  /** The tracker of `runtime`'s allocations (create it right after opening the runtime). */
  readonly tracker: Tracker;
  /** Staging pools and budgets the strategy leases from. */
  readonly staging: Staging;
  readonly strategy: SnapshotStrategy;
  /** Decides the passes of each dispatch and what each collects. */
  readonly passes: PassProvider;
  /**
   * `queue` (default): nothing extra, the dispatch's queue already orders its work.
   * `agent`: wait for every queue of the agent and hold the whole agent (the reference behaviour, a baseline).
   */
  readonly quiesce?: QuiesceMode;
  /** `off` (default), `restore` (every pass starts from identical memory) or `full` (plus identical pass outputs). */
  readonly verify?: VerifyMode;
  /**
   * Time each phase (capture, passes, restores) on the device clock with events around it (default
   * true). Off, a window enqueues no events of its own, which saves their cost per dispatch; the
   * result's phase timings are then empty and only wall time is measured.
   */
  readonly phaseTimings?: boolean;
}

/** {@link ReplayEngineOptions} with defaults filled in. */
export type ResolvedEngineOptions = Required<ReplayEngineOptions>;

/**
 * Checks the engine's options and fills in the defaults.
 * @throws {ArgumentError} naming the first option that is missing or invalid.
 */
export function resolveEngineOptions(options: ReplayEngineOptions): ResolvedEngineOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalid('options', `options is ${describeValue(options)}, not an object`, 'Pass { runtime, tracker, staging, strategy, passes }');
  }
  const { runtime, tracker, staging, strategy, passes, quiesce = 'queue', verify = 'off', phaseTimings = true } = options;
  if (!hasMethods(runtime, ['allocateHost', 'onMemoryEvent'])) {
    throw invalid('runtime', `runtime is ${describeValue(runtime)}, not a Runtime`, 'Pass the Runtime that openRuntime() returned');
  }
  if (!hasMethods(tracker, ['allocations', 'resolveArguments', 'tag'])) {
    throw invalid('tracker', `tracker is ${describeValue(tracker)}, not a Tracker`, 'Pass createTracker(runtime) from @kreplay/tracker');
  }
  if (!hasMethods(staging, ['lease', 'usage'])) {
    throw invalid('staging', `staging is ${describeValue(staging)}, not a Staging`, 'Pass createStaging(runtime, tracker) from @kreplay/snapshot');
  }
  if (!hasMethods(strategy, ['prepare']) || strategy.specificationVersion !== snapshotSpecificationVersion || typeof strategy.name !== 'string') {
    throw invalid(
      'strategy',
      `strategy ${describeValue((strategy as { name?: unknown } | undefined)?.name)} is not a snapshot strategy of specification version ${snapshotSpecificationVersion}`,
      'Pass a strategy such as fullStrategy() from @kreplay/snapshot, or an object with specificationVersion, name and prepare',
    );
  }
  const providerMethods = ['passCount', 'beginPass', 'endPass'];
  if (!hasMethods(passes, providerMethods) || passes.specificationVersion !== passProviderSpecificationVersion || typeof passes.name !== 'string' || !optionalMethods(passes, ['collect', 'beginDispatch', 'endDispatch', 'collectRange'])) {
    throw invalid(
      'passes',
      `passes ${describeValue((passes as { name?: unknown } | undefined)?.name)} is not a pass provider of specification version ${passProviderSpecificationVersion}`,
      'Pass fixedPasses(n) or timingPasses(n), or an object with specificationVersion, name, passCount, beginPass and endPass',
    );
  }
  if (quiesce !== 'queue' && quiesce !== 'agent') {
    throw invalid('quiesce', `quiesce is ${describeValue(quiesce)}`, "Use 'queue' (the default) or 'agent'");
  }
  if (verify !== 'off' && verify !== 'restore' && verify !== 'full') {
    throw invalid('verify', `verify is ${describeValue(verify)}`, "Use 'off' (the default), 'restore' or 'full'");
  }
  if (typeof phaseTimings !== 'boolean') {
    throw invalid('phaseTimings', `phaseTimings is ${describeValue(phaseTimings)}`, 'Use true (the default) or false');
  }
  return { runtime, tracker, staging, strategy, passes, quiesce, verify, phaseTimings };
}

function invalid(argument: string, what: string, fix: string) {
  return replayArgumentError('engine', argument, what, fix);
}

/** Whether each of the provider's optional hooks is absent or a function. */
function optionalMethods(provider: PassProvider, names: readonly (keyof PassProvider)[]): boolean {
  return names.every((name) => provider[name] === undefined || typeof provider[name] === 'function');
}
