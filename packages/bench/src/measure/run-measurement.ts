import type { BenchCell } from '../sweep/bench-cell.js';
import type { DispatchSample } from '../report/dispatch-sample.js';
import type { BackgroundMeasurement } from './background-streams.js';

/** Why a run dispatched fewer times than its cell asked for. */
export type StopReason = 'time-limit' | 'interrupted';

/** Host memory a run held: the process's resident set and staging's host high-water. */
export interface RunMemory {
  readonly rssBaselineBytes: number;
  readonly rssPeakBytes: number;
  readonly rssSamples: number;
  /** The most host bytes staging held at once (pinned + pageable). */
  readonly stagingHostHighWaterBytes: number;
}

/** What one run of a cell measured, before summaries and ratios. */
export interface RunMeasurement {
  readonly cell: BenchCell;
  readonly strategy: string;
  /** The tier the snapshots were staged in (the last replayed dispatch's); null when none was. */
  readonly tier: string | null;
  readonly samples: readonly DispatchSample[];
  /** Host seconds of the whole run (dispatches only, not setup). */
  readonly seconds: number;
  readonly stopped: StopReason | null;
  readonly memory: RunMemory;
  readonly background: BackgroundMeasurement | null;
  readonly notes: readonly string[];
}

/** How a run is bounded: a time limit, an abort signal and a progress callback. */
export interface RunControl {
  readonly runSecondsLimit: number;
  readonly rssSampleMilliseconds: number;
  readonly backgroundSoloSeconds: number;
  readonly signal?: AbortSignal;
  /** Called after each dispatch. */
  readonly onDispatch?: (index: number) => void;
}

/** Whether a run should stop before dispatch `index`, and why. */
export function stopBefore(index: number, startedMs: number, control: RunControl): StopReason | null {
  if (control.signal?.aborted) return 'interrupted';
  if (index >= 2 && performance.now() - startedMs > control.runSecondsLimit * 1000) return 'time-limit';
  return null;
}
