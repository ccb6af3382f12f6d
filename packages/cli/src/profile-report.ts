import type { ProfilerCacheControl, ProfilerRange } from '@kreplay/native';
import type { ProfileDocument } from '@kreplay/bench';
import type { ProfileConditions } from '@kreplay/replay';
import type { CaptureRangeChoice } from './capture-ranges.js';
import type { GraphProfiling } from './graph-profiling.js';
import type { ProfileRange, ProfileRow } from './profile-dispatches.js';
import type { ProfileSection } from './sections/resolve-sections.js';

/** What `kreplay profile --json` prints: a profile document (`@kreplay/bench`'s ProfileDocument) as this command fills it. */
export interface ProfileReport extends ProfileDocument {
  readonly measure: ProfilerRange;
  readonly cacheControl: ProfilerCacheControl;
  readonly range: CaptureRangeChoice;
  /** `capture:` only: `--graph-profiling`, node (each kernel node of a captured graph launch its own result) or graph (each captured graph launch one result). */
  readonly graphProfiling?: GraphProfiling;
  /** Every condition the counters were measured under: the L2 flush, the instruction caches, cache control, warm runs, samples. */
  readonly conditions: ProfileConditions;
  /** The device's architecture (`sm_90`): which metrics each section collects, and ncu's `CC`. */
  readonly architecture: string;
  /** The sections collected (--section, --set; `basic` when nothing was named), as their tables print. */
  readonly sections: readonly ProfileSection[];
  /** The metrics named with --metrics. */
  readonly commandLineMetrics: readonly string[];
  readonly dispatches: readonly ProfileRow[];
  readonly ranges: readonly ProfileRange[];
  /** `capture:` only: the reason of each damaged record of the folder (not profiled), led by its file. */
  readonly damaged?: readonly string[];
}
