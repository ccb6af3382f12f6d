import type { Agent, KernelArguments, KernelDescriptor, MemoryRange, Queue, Runtime } from '@kreplay/native';
import type { ArgumentResolution, Tracker } from '@kreplay/tracker';
import type { ByteAccount } from './byte-account.js';
import type { Staging, StagingTier } from './staging-types.js';

/** The version of the strategy contract this package speaks. */
export const snapshotSpecificationVersion = 1;

/**
 * One dispatch about to be replayed, as a strategy sees it. A range of dispatches replayed as one
 * unit (captured once, the whole sequence run in every pass) is seen as one context: `kernel` and
 * `args` are its first dispatch's, `resolution` is the merge of every dispatch's resolution (what
 * the whole sequence reaches), and `dispatches` lists each one.
 */
export interface DispatchContext {
  readonly runtime: Runtime;
  readonly agent: Agent;
  /** The queue the dispatch, its capture and its restores run on. */
  readonly queue: Queue;
  readonly kernel: KernelDescriptor;
  readonly args: KernelArguments;
  readonly tracker: Tracker;
  /** The dispatch's arguments resolved by the tracker, once, by the caller. */
  readonly resolution: ArgumentResolution;
  /** Staging pools and budgets shared by every strategy of the process. */
  readonly staging: Staging;
  /**
   * Present for a range: every dispatch of the sequence, in order, each with its own resolution
   * (absent for a single dispatch).
   */
  readonly dispatches?: readonly {
    readonly kernel: KernelDescriptor;
    readonly args: KernelArguments;
    readonly resolution: ArgumentResolution;
  }[];
}

/**
 * What a strategy returns for one dispatch: a snapshot ready to capture, or a decline with a
 * reason (the dispatch then runs once, unreplayed). Preparing allocates staging but enqueues nothing.
 */
export type SnapshotPreparation =
  | { readonly kind: 'ready'; readonly snapshot: Snapshot }
  | { readonly kind: 'declined'; readonly reason: string };

/**
 * A snapshot of one dispatch's memory. Every method that moves bytes only ENQUEUES work on the
 * dispatch's queue, so a whole replay window is queued work the host waits for once.
 */
export interface Snapshot {
  /** The application memory this snapshot captures and restores. */
  readonly ranges: readonly MemoryRange[];
  /**
   * Where the captured bytes are staged; for a snapshot spanning tiers (the `auto` tier when it does
   * not fit the spare device memory whole), its first tier, `device`. `account().staging` gives
   * the bytes by tier.
   */
  readonly tier: StagingTier;
  /** Plain-words notes, e.g. why write-set fell back to full. */
  readonly notes: readonly string[];
  /** Enqueue the capture of `ranges` (before pass 1). */
  capture(): void;
  /** Enqueue putting `ranges` back to their captured bytes, before pass `nextPass` (>= 2). */
  restore(nextPass: number): void;
  /** Enqueue whatever `account()` needs to read back (after the last pass). */
  finish(): void;
  /** The bytes this snapshot moved and hashed; valid once the queue has completed its work. */
  account(): ByteAccount;
  /**
   * Give staging back to the pools. Idempotent. `end` says how the window ended, for strategies that
   * keep state across dispatches (a failed window may have left it inconsistent); absent: unknown.
   */
  release(end?: WindowEnd): void;
}

/** How the replay window of a snapshot ended. */
export interface WindowEnd {
  /** True when every phase of the window ran without a failure (retried phases included). */
  readonly completed: boolean;
}

/**
 * A pluggable snapshot strategy. Implementations are factories returning plain objects.
 *
 * Ownership: whoever creates a strategy owns it and disposes it when done, after the engines that
 * use it (a replay engine never disposes the strategy, staging, tracker or runtime it is given; one
 * strategy may serve several engines). What a strategy keeps across dispatches (dirty-pages: a
 * mirror per candidate set, with its page hashes, in leased staging, and a pinned readback buffer)
 * stays held until `dispose`, or until the program frees the memory it mirrors. A snapshot holds
 * its staging from `prepare` until `release`.
 */
export interface SnapshotStrategy {
  readonly specificationVersion: typeof snapshotSpecificationVersion;
  readonly name: string;
  /** Plan the snapshot of one dispatch. */
  prepare(dispatch: DispatchContext): SnapshotPreparation;
  /**
   * Drop what the strategy keeps across dispatches (mirrors, hashes): their staging goes back to
   * the pools (a snapshot still held gives its own back at `release`). Idempotent; the strategy may
   * be used again afterwards, starting cold.
   */
  dispose?(): void;
}

/**
 * A strategy whose owner disposes it with `dispose()` or `using` (what the shipped factories
 * return). See {@link SnapshotStrategy} for what it holds and who disposes it.
 */
export interface DisposableSnapshotStrategy extends SnapshotStrategy, Disposable {
  dispose(): void;
}
