import type { Queue, Runtime } from '@kreplay/native';
import { createReplayEngine, fixedPasses } from '@kreplay/replay';
import type { DispatchResult } from '@kreplay/replay';
import { bytesCopied, createStaging } from '@kreplay/snapshot';
import type { StagingTier } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import type { Tracker } from '@kreplay/tracker';
import { cuptiCheckpointProvider } from '../baselines/cupti-checkpoint-provider.js';
import { strategyByName } from '../strategy-by-name.js';
import { addToVerificationTally, emptyVerificationTally, verifiedOfTally } from '../verification-tally.js';
import { createScatterWorkload } from '../workloads/scatter-workload.js';
import type { ScatterWorkload } from '../workloads/scatter-workload.js';
import { measureDeviceRates } from './device-rates.js';
import type { DeviceRates } from './device-rates.js';
import { overheadVariants } from './overhead-variants.js';
import type { OverheadVariant } from './overhead-variants.js';
import { shapeWorkload } from './workload-shapes.js';
import type { WorkloadShape } from './workload-shapes.js';
import { timeDispatches, timeInterleaved } from './dispatch-timing.js';
import { benchArgumentError } from '../argument-error.js';

/** Options of {@link measureReplayOverhead}. */
export interface OverheadOptions {
  readonly shape: WorkloadShape;
  /** Default 1 GiB. */
  readonly footprintBytes?: number;
  /**
   * The footprint as a fraction of the agent's device memory (`memoryInfo().totalBytes`), in (0, 1),
   * instead of `footprintBytes`: e.g. 0.7 for a workload that leaves 30% of the device free, so
   * that snapshots larger than the spare device memory span tiers.
   */
  readonly footprintOfDevice?: number;
  /** Default 0.01. */
  readonly writeFraction?: number;
  /** Timed dispatches per variant. Default 1000. */
  readonly dispatches?: number;
  /** Stop timing a variant after this many seconds, whatever `dispatches` says. Default 30. */
  readonly maxSecondsPerVariant?: number;
  /**
   * Untimed dispatches of each variant (and of the runs without replay) before its timing: pools,
   * mirrors, and the JavaScript engine's optimizing compiler, which reaches the code run once per
   * dispatch only after some thousand dispatches. Default 2000.
   */
  readonly warmupDispatches?: number;
  /** Stop a warm-up after this many seconds, whatever `warmupDispatches` says. Default 2. */
  readonly maxWarmupSeconds?: number;
  /** Default 5. */
  readonly passes?: number;
  /** Dispatches per variant replayed afterwards with verification `full`. Default 2. */
  readonly verifyDispatches?: number;
  /** Variant names to run. Default: all. */
  readonly variants?: readonly string[];
  /** Whether the replay engines time each phase with device events (costs a few µs per phase). Default false. */
  readonly phaseTimings?: boolean;
  readonly onVariant?: (name: string) => void;
  /** Aborting stops before the next variant: the result then holds the rows of the variants measured. */
  readonly signal?: AbortSignal;
}

/** What one variant cost. */
export interface OverheadRow {
  readonly variant: string;
  readonly available: boolean;
  readonly note: string | null;
  /**
   * Wall milliseconds of the variant's first dispatch, alone, before its warm-up: what building its
   * staging costs (pools, pinning, the dirty-pages mirror). Null when the variant did not run.
   */
  readonly firstDispatchMs: number | null;
  /** Staging the first dispatch held, by tier (a snapshot larger than the spare device memory spans device and pinned host); replay variants only. */
  readonly stagingBytesByTier: Readonly<Record<StagingTier, number>> | null;
  /** The most host RAM the variant's staging held at once (its pools' high-water); replay variants only. */
  readonly hostStagingHighWaterBytes: number | null;
  /** hostStagingHighWaterBytes over the first dispatch's host-tier staging (pinned + pageable); null when it staged nothing on the host. */
  readonly hostHighWaterRatio: number | null;
  /** Untimed dispatches run before the timing (fewer than asked when the warm-up's time cap ended it). */
  readonly warmupDispatches: number;
  /** Wall milliseconds per warm-up dispatch: what the first dispatches of a process cost; null when none ran. */
  readonly warmupMs: number | null;
  /** Dispatches timed (fewer than asked when the time cap ended the loop). */
  readonly dispatchesTimed: number;
  /** Wall milliseconds per replayed dispatch (all passes, snapshot and restores, one wait). */
  readonly replayMs: number | null;
  /** Wall milliseconds per dispatch of the same passes without replay (one wait), timed in turns with the variant's dispatches. */
  readonly passesWithoutReplayMs: number | null;
  /** replayMs minus passesWithoutReplayMs: what replay adds per dispatch. */
  readonly overheadMs: number | null;
  /** Mean host milliseconds per dispatch before its window's first phase was enqueued (the engine's `hostBeforeEnqueueMs`); replay variants only. */
  readonly hostBeforeEnqueueMs: number | null;
  /** Mean host milliseconds per dispatch from the end of its wait to its result (the engine's `hostAfterWaitMs`); replay variants only. */
  readonly hostAfterWaitMs: number | null;
  /** Bytes copied per second of overhead, over the raw pinned copy rate (both directions' mean); full/pinned only. */
  readonly pinnedRateVsRawCopy: number | null;
  readonly bytesCopiedPerDispatch: number | null;
  readonly bytesHashedPerDispatch: number | null;
  readonly declined: number;
  /**
   * What the verification dispatches (verify `full`) prove together: false when one found a
   * mismatch, true when some verified and none was a mismatch or incomplete, null when nothing was
   * proven (none run, one pass, all declined, or a verification incomplete).
   */
  readonly verified: boolean | null;
  /** overheadMs over the physical floor (two reads of the candidates plus the dirty bytes); dirty-pages only. */
  readonly floorRatio: number | null;
}

/** The overhead of every variant on one workload shape. */
export interface OverheadResult {
  readonly driver: string;
  readonly device: string;
  readonly shape: WorkloadShape;
  readonly footprintBytes: number;
  /** The footprint's share of the agent's device memory. */
  readonly footprintOfDevice: number;
  readonly writeFraction: number;
  readonly passes: number;
  readonly dispatches: number;
  /** Untimed dispatches asked for before each timing, and the seconds that cap them. */
  readonly warmup: { readonly dispatches: number; readonly maxSeconds: number };
  /** Whether the timed engines timed their phases with device events. */
  readonly phaseTimings: boolean;
  /** One dispatch of the kernel, waited for, without replay. */
  readonly bareMs: number;
  /** The kernel run `passes` times and waited for once, without replay, timed before the variants (each row has its own, timed in turns with it). */
  readonly passesWithoutReplayMs: number;
  /** The writable bytes (the write set) the dirty-pages strategy must read twice per dispatch. */
  readonly candidateBytes: number;
  readonly rates: DeviceRates;
  /** Two reads of the candidates at the hash rate plus dirty-pages' copied bytes at the copy rate. */
  readonly floorMs: number | null;
  readonly rows: readonly OverheadRow[];
}

type OverheadSettings = Required<
  Pick<OverheadOptions, 'dispatches' | 'warmupDispatches' | 'maxWarmupSeconds' | 'passes' | 'verifyDispatches' | 'maxSecondsPerVariant' | 'phaseTimings'>
>;

function checkWarmup({ warmupDispatches, maxWarmupSeconds }: OverheadSettings): void {
  if (!Number.isSafeInteger(warmupDispatches) || warmupDispatches < 0) {
    throw benchArgumentError('overhead', 'warmupDispatches', `warmupDispatches must be a whole number >= 0, got ${String(warmupDispatches)}`, 'Pass 0 to time from the first dispatch');
  }
  if (!(maxWarmupSeconds > 0)) {
    throw benchArgumentError('overhead', 'maxWarmupSeconds', `maxWarmupSeconds must be a number of seconds > 0, got ${String(maxWarmupSeconds)}`, 'Pass e.g. 2');
  }
}

/** Runs the untimed warm-up dispatches; how many ran and their mean wall milliseconds. */
async function warmUp(settings: OverheadSettings, dispatch: (index: number) => Promise<unknown>): Promise<{ warmupDispatches: number; warmupMs: number | null }> {
  if (settings.warmupDispatches === 0) return { warmupDispatches: 0, warmupMs: null };
  const { milliseconds, dispatches } = await timeDispatches(settings.warmupDispatches, dispatch, settings.maxWarmupSeconds);
  return { warmupDispatches: dispatches, warmupMs: milliseconds };
}

async function runVariant(
  runtime: Runtime,
  tracker: Tracker,
  workload: ScatterWorkload,
  queue: Queue,
  variant: OverheadVariant,
  settings: OverheadSettings,
  passesWithoutReplay: (index: number) => Promise<void>,
): Promise<Omit<OverheadRow, 'floorRatio' | 'pinnedRateVsRawCopy'>> {
  const { dispatches, passes, verifyDispatches, maxSecondsPerVariant, phaseTimings } = settings;
  if (variant.kind === 'checkpoint') {
    const provider = cuptiCheckpointProvider();
    const reason = provider.unavailableReason(runtime);
    const none = {
      firstDispatchMs: null,
      stagingBytesByTier: null,
      hostStagingHighWaterBytes: null,
      hostHighWaterRatio: null,
      warmupDispatches: 0,
      warmupMs: null,
      dispatchesTimed: 0,
      replayMs: null,
      passesWithoutReplayMs: null,
      overheadMs: null,
      hostBeforeEnqueueMs: null,
      hostAfterWaitMs: null,
      bytesCopiedPerDispatch: null,
      bytesHashedPerDispatch: null,
      declined: 0,
      verified: null,
    };
    if (reason !== null) return { variant: variant.name, available: false, note: reason, ...none };
    const session = await provider.open(queue);
    let failed = false;
    try {
      const replay = async (index: number) => {
        const { kernel, args } = workload.dispatch(index);
        await session.save();
        for (let pass = 1; pass <= passes; pass += 1) {
          if (pass > 1) await session.restore();
          queue.enqueueKernel(kernel, args);
          await queue.synchronize();
        }
      };
      const first = await timeDispatches(1, replay);
      const warmup = await warmUp(settings, (index) => replay(1 + index));
      const timed = await timeInterleaved(dispatches, (index) => replay(1 + warmup.warmupDispatches + index), passesWithoutReplay, maxSecondsPerVariant);
      const note = 'save, then each pass synchronized with a restore before it';
      return {
        variant: variant.name,
        available: true,
        note,
        ...none,
        firstDispatchMs: first.milliseconds,
        ...warmup,
        dispatchesTimed: timed.dispatches,
        replayMs: timed.replayMs,
        passesWithoutReplayMs: timed.baselineMs,
        overheadMs: timed.replayMs - timed.baselineMs,
      };
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // After a failure, disposing may fail for the same reason: the first error is the one to report.
      await session.dispose().catch((disposeError: unknown) => {
        if (!failed) throw disposeError;
      });
    }
  }
  const { replay } = variant;
  // Disposed in reverse order when the variant returns or throws: engines, strategy, staging.
  using staging = createStaging(runtime, tracker, { reuse: replay.reuse });
  using strategy = strategyByName(replay.strategy, { tier: replay.tier });
  await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes: fixedPasses(passes), quiesce: replay.quiesce, phaseTimings });
  await using verifier = createReplayEngine({ runtime, tracker, staging, strategy, passes: fixedPasses(passes), verify: 'full' });
  let copied = 0;
  let hashed = 0;
  let declined = 0;
  let hostBefore = 0;
  let hostAfter = 0;
  const account = (result: DispatchResult) => {
    copied += bytesCopied(result.bytes);
    hashed += result.bytes.hashed;
    hostBefore += result.timings.hostBeforeEnqueueMs ?? 0;
    hostAfter += result.timings.hostAfterWaitMs ?? 0;
    if (!result.replayed) declined += 1;
  };
  const replayed = (index: number) => engine.dispatch({ queue, ...workload.dispatch(index) });
  let firstResult: DispatchResult | undefined;
  const first = await timeDispatches(1, async (index) => (firstResult = await replayed(index)));
  const warmup = await warmUp(settings, (index) => replayed(1 + index));
  const timed = await timeInterleaved(dispatches, async (index) => account(await replayed(1 + warmup.warmupDispatches + index)), passesWithoutReplay, maxSecondsPerVariant);
  let verification = emptyVerificationTally();
  for (let index = 0; index < verifyDispatches; index += 1) {
    const result = await verifier.dispatch({ queue, ...workload.dispatch(1 + warmup.warmupDispatches + timed.dispatches + index) });
    verification = addToVerificationTally(verification, result);
  }
  const verified = verifiedOfTally(verification);
  const stagingBytesByTier = firstResult!.bytes.staging;
  const hostTierBytes = stagingBytesByTier['host-pinned'] + stagingBytesByTier['host-pageable'];
  const { hostHighWaterBytes } = staging.usage();
  return {
    variant: variant.name,
    available: true,
    note: declined > 0 ? `${declined} dispatch(es) declined` : null,
    firstDispatchMs: first.milliseconds,
    stagingBytesByTier,
    hostStagingHighWaterBytes: hostHighWaterBytes,
    hostHighWaterRatio: hostTierBytes > 0 ? hostHighWaterBytes / hostTierBytes : null,
    ...warmup,
    dispatchesTimed: timed.dispatches,
    replayMs: timed.replayMs,
    passesWithoutReplayMs: timed.baselineMs,
    overheadMs: timed.replayMs - timed.baselineMs,
    hostBeforeEnqueueMs: hostBefore / timed.dispatches,
    hostAfterWaitMs: hostAfter / timed.dispatches,
    bytesCopiedPerDispatch: copied / timed.dispatches,
    bytesHashedPerDispatch: hashed / timed.dispatches,
    declined,
    verified,
  };
}

/**
 * Measures what each replay variant adds to a dispatch of a workload shape, against the same kernel
 * run without replay in turns with it (see {@link timeInterleaved}), in one run: `full` in pageable
 * (per-dispatch staging, agent-wide quiesce: the reference design), pinned and device staging,
 * `write-set`, `dirty-pages`, and the CUPTI Checkpoint API where the driver offers it. It also
 * measures the hash and copy rates behind the physical floor.
 * A benchmark: it reports what it measured.
 */
export async function measureReplayOverhead(runtime: Runtime, options: OverheadOptions): Promise<OverheadResult> {
  const agent = runtime.agents[0]!;
  const footprintBytes = resolveFootprint(agent, options);
  const writeFraction = options.writeFraction ?? 0.01;
  const settings = {
    dispatches: options.dispatches ?? 1000,
    warmupDispatches: options.warmupDispatches ?? 2000,
    maxWarmupSeconds: options.maxWarmupSeconds ?? 2,
    passes: options.passes ?? 5,
    verifyDispatches: options.verifyDispatches ?? 2,
    maxSecondsPerVariant: options.maxSecondsPerVariant ?? 30,
    phaseTimings: options.phaseTimings ?? false,
  };
  checkWarmup(settings);
  using tracker = createTracker(runtime); // disposed after the finally below, on every path
  const workload = await createScatterWorkload(agent, shapeWorkload(options.shape, footprintBytes, writeFraction));
  const queue = agent.createQueue();
  try {
    const bare = async (index: number) => {
      const { kernel, args } = workload.dispatch(index);
      queue.enqueueKernel(kernel, args);
      await queue.synchronize();
    };
    const passesWithoutReplay = async (index: number) => {
      const { kernel, args } = workload.dispatch(index);
      for (let pass = 0; pass < settings.passes; pass += 1) queue.enqueueKernel(kernel, args);
      await queue.synchronize();
    };
    await warmUp(settings, bare);
    const bareMs = (await timeDispatches(settings.dispatches, bare, settings.maxSecondsPerVariant)).milliseconds;
    await warmUp(settings, passesWithoutReplay);
    const passesWithoutReplayMs = (await timeDispatches(settings.dispatches, passesWithoutReplay, settings.maxSecondsPerVariant)).milliseconds;
    const candidates = [{ address: workload.state.address, bytes: workload.state.bytes }];
    // Its two copy buffers take at most half the device memory left free (little at a footprint near the device's size).
    const rateCopyBytes = Math.max(4096, Math.floor(Math.min(256 * 2 ** 20, workload.state.bytes, agent.memoryInfo().freeBytes / 4) / 4096) * 4096);
    const rates = await measureDeviceRates(agent, queue, candidates, rateCopyBytes);
    const rows: OverheadRow[] = [];
    let floorMs: number | null = null;
    for (const variant of overheadVariants.filter((candidate) => options.variants?.includes(candidate.name) ?? true)) {
      if (options.signal?.aborted === true) break;
      options.onVariant?.(variant.name);
      const row = await runVariant(runtime, tracker, workload, queue, variant, settings, passesWithoutReplay);
      let floorRatio: number | null = null;
      let pinnedRateVsRawCopy: number | null = null;
      if (variant.name === 'full/pinned' && row.bytesCopiedPerDispatch !== null && row.overheadMs !== null && row.overheadMs > 0) {
        const rawRate = (rates.pinnedDeviceToHostBytesPerSecond + rates.pinnedHostToDeviceBytesPerSecond) / 2;
        pinnedRateVsRawCopy = row.bytesCopiedPerDispatch / (row.overheadMs / 1000) / rawRate;
      }
      if (variant.kind === 'replay' && variant.replay.strategy === 'dirty-pages' && row.bytesCopiedPerDispatch !== null && row.overheadMs !== null) {
        floorMs = 1000 * ((2 * workload.state.bytes) / rates.hashBytesPerSecond + row.bytesCopiedPerDispatch / rates.copyBytesPerSecond);
        floorRatio = row.overheadMs / floorMs;
      }
      rows.push({ ...row, floorRatio, pinnedRateVsRawCopy });
    }
    return {
      driver: runtime.driver,
      device: agent.info.name,
      shape: options.shape,
      footprintBytes,
      footprintOfDevice: footprintBytes / agent.memoryInfo().totalBytes,
      writeFraction,
      passes: settings.passes,
      dispatches: settings.dispatches,
      warmup: { dispatches: settings.warmupDispatches, maxSeconds: settings.maxWarmupSeconds },
      phaseTimings: settings.phaseTimings,
      bareMs,
      passesWithoutReplayMs,
      candidateBytes: workload.state.bytes,
      rates,
      floorMs,
      rows,
    };
  } finally {
    await queue.dispose();
    workload.free();
  }
}

/** The footprint in bytes: `footprintBytes`, or `footprintOfDevice` of the agent's device memory in whole 64 KiB. */
function resolveFootprint(agent: Runtime['agents'][number], options: OverheadOptions): number {
  const { footprintOfDevice } = options;
  if (footprintOfDevice === undefined) return options.footprintBytes ?? 2 ** 30;
  if (options.footprintBytes !== undefined) {
    throw benchArgumentError('overhead', 'footprintOfDevice', 'footprintBytes and footprintOfDevice were both given', 'Pass one of them');
  }
  if (!(footprintOfDevice > 0 && footprintOfDevice < 1)) {
    throw benchArgumentError('overhead', 'footprintOfDevice', `footprintOfDevice must be a fraction of the device memory in (0, 1), got ${String(footprintOfDevice)}`, 'Pass e.g. 0.7');
  }
  const granule = 65536;
  return Math.max(granule, Math.floor((footprintOfDevice * agent.memoryInfo().totalBytes) / granule) * granule);
}
