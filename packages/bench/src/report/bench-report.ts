import type { AgentInfo, MemoryInfo } from '@kreplay/native';
import type { CheckpointAvailability } from '../baselines/checkpoint-provider.js';
import type { CopyCeiling } from '../baselines/copy-ceiling.js';
import type { BackgroundMeasurement } from '../measure/background-streams.js';
import type { RunMemory, StopReason } from '../measure/run-measurement.js';
import type { BenchConfiguration } from '../sweep/bench-configuration.js';
import type { BenchCell } from '../sweep/bench-cell.js';
import type { SkippedCell } from '../sweep/bench-plan.js';
import type { DispatchSample } from './dispatch-sample.js';
import type { MachineInfo, ReportVersions } from './machine-info.js';
import type { PassCostFit } from './pass-cost-fit.js';
import type { RowRatios } from './row-ratios.js';
import type { RowSummary } from './row-summary.js';

/** The `schema` of every bench report: the kind of document (its JSON Schema is named by `$schema`). */
export const benchReportSchema = 'kreplay-bench-report';

/** The report version this package writes and reads. */
export const benchReportVersion = 1;

/** One run of the benchmark: its configuration, summary, ratios and every dispatch sample. */
export interface BenchRow extends BenchCell {
  /** The strategy (or baseline provider) that ran. */
  readonly strategy: string;
  readonly tier: string | null;
  readonly dispatchesRun: number;
  /** Host seconds of the run's dispatches. */
  readonly seconds: number;
  /** Why it ran fewer dispatches than configured; null when it ran them all. */
  readonly stopped: StopReason | null;
  /** False for baselines that report no byte counts. */
  readonly bytesMeasured: boolean;
  readonly summary: RowSummary;
  readonly memory: RunMemory;
  readonly background: BackgroundMeasurement | null;
  readonly ratios: RowRatios;
  readonly notes: readonly string[];
  readonly samples: readonly DispatchSample[];
}

/** An agent as the report records it: its info and its memory when the run began. */
export interface ReportDevice extends AgentInfo {
  readonly memory: MemoryInfo;
}

/** A benchmark report: the machine, what was configured, and everything measured. */
export interface BenchReport {
  /**
   * The JSON Schema the report follows ({@link benchReportSchemaId}); written by this package,
   * absent from reports written before the schema was published (they are read all the same).
   */
  readonly $schema?: string;
  readonly schema: typeof benchReportSchema;
  readonly version: typeof benchReportVersion;
  /** False when the run was interrupted: the rows are what was measured until then. */
  readonly complete: boolean;
  readonly createdAt: string;
  readonly durationSeconds: number;
  readonly machine: MachineInfo;
  readonly driver: string;
  readonly devices: readonly ReportDevice[];
  readonly versions: ReportVersions;
  readonly gitCommit: string | null;
  readonly configuration: BenchConfiguration;
  readonly baselines: {
    readonly copyCeilings: readonly CopyCeiling[];
    readonly checkpoint: CheckpointAvailability;
  };
  readonly rows: readonly BenchRow[];
  readonly fits: readonly PassCostFit[];
  readonly skipped: readonly SkippedCell[];
  readonly notes: readonly string[];
}
