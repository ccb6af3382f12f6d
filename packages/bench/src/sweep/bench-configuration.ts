import type { ReplayVariantName } from './replay-variants.js';

/** A sweep of one more dimension, run at one footprint and the configuration's `sweepPasses`. */
export interface SideSweep<T> {
  /** The footprint it runs at; the largest footprint that fits below it when it does not fit. */
  readonly footprintBytes: number;
  readonly values: readonly T[];
}

/**
 * What a benchmark run measures. The main sweep is every variant x footprint x passes at
 * `dispatches`, `writeFraction` and one stream; side sweeps vary one more dimension each.
 */
export interface BenchConfiguration {
  /** The preset it came from, or `custom`. */
  readonly preset: string;
  readonly variants: readonly ReplayVariantName[];
  /** Footprints of the main sweep, in bytes; those the machine cannot hold are skipped with a note. */
  readonly footprints: readonly number[];
  /**
   * More footprints of the main sweep, as shares in (0, 1) of the agent's free device memory when the
   * run is planned (the `large` preset: 0.5, 0.7 and 0.9, where snapshots span device and host tiers).
   */
  readonly footprintsOfDevice?: readonly number[];
  /** Pass counts of the main sweep (the per-pass fit needs at least two). */
  readonly passes: readonly number[];
  /** Dispatches per run of the main sweep. */
  readonly dispatches: number;
  /** Fraction of the footprint's pages each dispatch writes, in the main sweep. */
  readonly writeFraction: number;
  /** Passes of the side sweeps. */
  readonly sweepPasses: number;
  readonly writeFractionSweep: SideSweep<number>;
  /** Dispatch counts: each run is a fresh engine, so its first (cold) dispatch is amortised over the count. */
  readonly dispatchSweep: SideSweep<number>;
  /** Stream counts above 1: the replay plus streams - 1 background triad streams. */
  readonly streamSweep: SideSweep<number>;
  /** A run stops dispatching after this many seconds (once it has two dispatches). */
  readonly runSecondsLimit: number;
  /** Timed repetitions of each raw-copy ceiling (the fastest counts). */
  readonly ceilingRepetitions: number;
  /** The largest buffer a ceiling copies from; bigger footprints repeat it in one plan. */
  readonly ceilingBufferBytes: number;
  /** Seconds each background stream runs alone to measure its throughput. */
  readonly backgroundSoloSeconds: number;
  /** Interval of the process RSS sampler, in milliseconds. */
  readonly rssSampleMilliseconds: number;
}
