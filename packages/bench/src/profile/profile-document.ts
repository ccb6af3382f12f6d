import { kreplaySchemaId } from '../report/json-schema-parts.js';

/** The version of the profile document this package reads (`schemaVersion`). */
export const profileReportVersion = 1;

/** The `schema` of every profile (`kreplay profile --json`), the `$id` of its JSON Schema. */
export const profileReportSchemaId = kreplaySchemaId('profile-report', profileReportVersion);

/** A launch shape: x, y, z. */
export type LaunchDimensions = readonly [number, number, number];

/** A metric's values by name; null where CUPTI's value was not a number (JSON has no NaN). */
export type MetricValues = Readonly<Record<string, number | null>>;

/** One dispatch (one captured launch) of a profile and its metrics. */
export interface ProfileDocumentRow {
  /** Its index; for `capture:`, the launch's sequence in the program. */
  readonly dispatch: number;
  /** The kernel's name, for a captured launch (`profile capture:DIR`); absent for the generated workloads. */
  readonly kernel?: string;
  /** The launch's grid and block dimensions, for a captured launch; what `kreplay compare --match grid` matches by. */
  readonly grid?: LaunchDimensions;
  readonly block?: LaunchDimensions;
  /** The range the dispatch ran in (an index into `ranges`), or null when it ran on its own. */
  readonly range: number | null;
  readonly replayed: boolean;
  readonly passes: number;
  /** Host wall milliseconds of the dispatch; in a range, the range's wall time shared evenly by its dispatches. */
  readonly wallMs: number;
  /** Bytes the snapshot copied for the dispatch; in a range, the range's bytes shared evenly by its dispatches. */
  readonly bytesCopied: number;
  /** Null when the dispatch was not profiled (declined, failed). */
  readonly metrics: MetricValues | null;
  /** With more than one sample (`profile capture: --samples N`): each sample's values, in order; `metrics` holds their medians. */
  readonly sampleMetrics?: readonly (MetricValues | null)[];
  readonly error?: string;
  readonly declineReason?: string;
}

/** A range of dispatches profiled as one unit (for `capture:`, consecutive launches of a captured sequence). */
export interface ProfileDocumentRange {
  /** The index of its first dispatch (for `capture:`, the sequence of its first launch). */
  readonly first: number;
  readonly dispatches: number;
  readonly replayed: boolean;
  /** Passes of the whole sequence (of each sample). */
  readonly passes: number;
  /** Host milliseconds of the range (of all its samples). */
  readonly wallMs: number;
  /** Bytes restored: what the snapshot copied, its capture and the restores between passes (of all samples). */
  readonly bytesCopied: number;
  readonly declineReason?: string;
  readonly error?: string;
}

/**
 * A profile as its JSON holds it (`kreplay profile --json`), version 1, as {@link parseProfileReport}
 * reads and validates it against {@link profileReportJsonSchema}. Fields this type does not name
 * (measurement conditions, notes, more fields per range) may be there too.
 */
export interface ProfileDocument {
  /** The JSON Schema the profile follows, which `kreplay report` and `compare` tell profiles by. */
  readonly schema: typeof profileReportSchemaId;
  readonly schemaVersion: typeof profileReportVersion;
  readonly driver: string;
  readonly device: string;
  readonly chip: string;
  readonly workload: string;
  readonly strategy: string;
  /** What each pass measured: the dispatch's kernel, or a range pushed around the dispatch. */
  readonly measure: 'kernel' | 'dispatch';
  /** Whether the L2 was flushed before every dispatch of a range (`all`) or only before each pass (`none`). */
  readonly cacheControl: string;
  /** Dispatches per range (1: one dispatch at a time); for `capture:`, `auto` or launches per range of a captured sequence. */
  readonly range: number | string;
  /** CUPTI's passes per dispatch (in a range: per run of the whole sequence). */
  readonly passes: number;
  /** Unprofiled runs of each dispatch (or range) before its passes. */
  readonly warmRuns: number;
  /** Times each dispatch was profiled, all its passes each time; its metrics are their medians. */
  readonly samples: number;
  readonly metrics: readonly string[];
  /** Each metric's unit as CUPTI names it (`nanosecond`, `percent`, `byte/second`). */
  readonly units: Readonly<Record<string, string>>;
  /** Host milliseconds to load CUPTI and plan the metrics. */
  readonly setupMs: number;
  /** Host milliseconds from the first dispatch to the last one's results. */
  readonly wallMs: number;
  readonly dispatches: readonly ProfileDocumentRow[];
  /** Each range of more than one dispatch, in order; empty with --range 1. */
  readonly ranges: readonly ProfileDocumentRange[];
  /** The measurement conditions the profile was taken under, where the profiler records them. */
  readonly conditions?: object;
  /** `capture:`: what the captured sequences' reader said (a version 1 capture, a launch whose predecessor is not there). */
  readonly notes?: readonly string[];
}
