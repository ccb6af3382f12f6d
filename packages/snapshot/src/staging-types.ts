import type { Agent } from '@kreplay/native';

/** Where snapshot bytes are kept. */
export type StagingTier = 'device' | 'host-pinned' | 'host-pageable';

/**
 * A tier, or `auto`. For {@link Staging.lease}, `auto` is device while the whole lease fits above the
 * reserve, else pinned host memory. For a strategy, `auto` also spans tiers: when a snapshot does not
 * fit the spare device memory whole, the part that fits goes to the device and the rest to pinned
 * host memory (see {@link Staging.deviceRoomBytes}).
 */
export type StagingTierChoice = StagingTier | 'auto';

/** Options of {@link createStaging}. */
export interface StagingOptions {
  /**
   * Host bytes all staging of the process may hold (pinned + pageable). Default: what this machine
   * holds beside the runtime (`hostStagingBudget` of `@kreplay/native`: physical memory less a
   * reserve of max(1 GiB, 10%), and on the host driver less its arenas), so a snapshot staged on
   * the host is declined rather than run the machine out of memory.
   */
  readonly hostBytesLimit?: number;
  /** Device bytes per agent that staging never takes. Default 0. */
  readonly deviceReserveBytes?: number;
  /**
   * Device bytes per agent that staging may hold at most (leased and pooled); the rest of a snapshot
   * with tier `auto` goes to pinned host memory. Default: no limit.
   */
  readonly deviceBytesLimit?: number;
  /** `pooled` keeps released staging for later dispatches; `per-dispatch` frees it (the reference design). Default `pooled`. */
  readonly reuse?: 'pooled' | 'per-dispatch';
}

/** A piece of staging memory held by a snapshot; `using` releases it. */
export interface StagingLease extends Disposable {
  readonly tier: StagingTier;
  readonly agentId: number;
  readonly address: number;
  readonly bytes: number;
  /** Give it back (to the pool, or freed with `per-dispatch`). Idempotent. */
  release(): void;
}

/** The outcome of asking for staging: a lease, or why none could be had. */
export type StagingResult =
  | { readonly kind: 'leased'; readonly lease: StagingLease }
  | { readonly kind: 'declined'; readonly reason: string };

/** What staging holds now and at most. */
export interface StagingUsage {
  readonly hostBytes: number;
  readonly hostHighWaterBytes: number;
  /** The host limit in force: the one given, or the default budget. */
  readonly hostBytesLimit: number | null;
  readonly deviceBytes: Readonly<Record<number, number>>;
  /** The most device staging held at once, per agent id (the device tier's high-water). */
  readonly deviceHighWaterBytes: Readonly<Record<number, number>>;
  readonly leasedBytes: number;
  readonly pooledBytes: number;
}

/**
 * Staging pools and budgets shared by all agents of a process. Its creator owns it: dispose it
 * (`dispose()` or `using`) after the engines and strategies that lease from it, and before the
 * runtime. Released leases stay pooled (device and pinned host memory) until `trim` or `dispose`.
 */
export interface Staging extends Disposable {
  /** Lease `bytes` on `agent` in the chosen tier; `auto` tries device, then pinned host. Never partial. */
  lease(agent: Agent, bytes: number, choice: StagingTierChoice): StagingResult;
  usage(): StagingUsage;
  /**
   * Optional capability: the bytes a `device` lease on `agent` can take now without cutting into the
   * reserve (idle pooled device staging counted as room), less a margin of 1/32 of the agent's
   * device memory for the driver and the program, rounded down to 64 KiB. Strategies with the
   * `auto` tier use it to split a snapshot across tiers; a staging without it never splits.
   */
  deviceRoomBytes?(agent: Agent): number;
  /** Free pooled memory no lease holds. */
  trim(): void;
  /** Free everything; leases still held become invalid. Idempotent. */
  dispose(): void;
}
