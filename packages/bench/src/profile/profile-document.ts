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
  /** The kernel's name (`capture:`); absent for the generated workloads. */
  readonly kernel?: string;
  /** The launch shape (`capture:`); absent for profiles without one. */
  readonly grid?: LaunchDimensions;
  readonly block?: LaunchDimensions;
  /** The index of the range it ran in, or null when it ran alone. */
  readonly range: number | null;
  readonly replayed: boolean;
  readonly passes: number;
  readonly wallMs: number;
  readonly bytesCopied: number;
  /** Null when the dispatch was not profiled (declined, failed). */
  readonly metrics: MetricValues | null;
  /** Each sample's values when there were several; `metrics` holds their medians. */
  readonly sampleMetrics?: readonly (MetricValues | null)[];
  readonly error?: string;
  readonly declineReason?: string;
}

/** A range of dispatches profiled as one unit. */
export interface ProfileDocumentRange {
  readonly first: number;
  readonly dispatches: number;
  readonly replayed: boolean;
  readonly passes: number;
  readonly wallMs: number;
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
  readonly schema: typeof profileReportSchemaId;
  readonly schemaVersion: typeof profileReportVersion;
  readonly driver: string;
  readonly device: string;
  readonly chip: string;
  readonly workload: string;
  readonly strategy: string;
  /** What each pass measured: the dispatch's kernel, or a range pushed around the dispatch. */
  readonly measure: 'kernel' | 'dispatch';
  readonly cacheControl: string;
  /** Dispatches per range (1: one at a time), or `auto` (whole captured sequences). */
  readonly range: number | string;
  readonly passes: number;
  readonly warmRuns: number;
  readonly samples: number;
  readonly metrics: readonly string[];
  /** Each metric's unit as CUPTI names it (`nanosecond`, `percent`, `byte/second`). */
  readonly units: Readonly<Record<string, string>>;
  readonly setupMs: number;
  readonly wallMs: number;
  readonly dispatches: readonly ProfileDocumentRow[];
  readonly ranges: readonly ProfileDocumentRange[];
  /** The measurement conditions the profile was taken under, where the profiler records them. */
  readonly conditions?: Readonly<Record<string, unknown>>;
  readonly notes?: readonly string[];
}
