/**
 * @kreplay/bench — workloads, measurements, baselines and reports for kernel replay.
 */
export { measureNativeCalls, splitPlan } from './native-call-benchmark.js';
export type {
  CopyPlanThroughput,
  NativeCallBenchmarkOptions,
  NativeCallBenchmarkResult,
} from './native-call-benchmark.js';
export { mean, median, secondsSince } from './statistics.js';
export { createScatterWorkload, validateScatterWorkloadOptions } from './workloads/scatter-workload.js';
export type { ScatterWorkload, ScatterWorkloadOptions, WorkloadDispatch } from './workloads/scatter-workload.js';
export { strategyByName, strategyNames } from './strategy-by-name.js';
export type { StrategyName } from './strategy-by-name.js';
export { runReplayExperiment } from './replay-experiment.js';
export type { AgentReplayResult, ReplayExperimentOptions, ReplayExperimentResult, ReplayRangeSummary } from './replay-experiment.js';
export { verifiedOfTally } from './verification-tally.js';
export type { VerificationTally } from './verification-tally.js';
export { measureWindowCost } from './window-cost-benchmark.js';
export type { WindowCost, WindowCostOptions, WindowCostResult } from './window-cost-benchmark.js';

export { fitLine } from './least-squares-fit.js';
export type { LineFit } from './least-squares-fit.js';
export { runBench } from './run-bench.js';
export type { BenchProgress, RunBenchOptions } from './run-bench.js';
export type { BenchConfiguration, SideSweep } from './sweep/bench-configuration.js';
export { benchPresetNames, benchPresets } from './sweep/bench-presets.js';
export type { BenchPresetName } from './sweep/bench-presets.js';
export { benchPreset, validateBenchConfiguration } from './sweep/validate-configuration.js';
export { isReplayVariantName, replayVariantNames, replayVariants } from './sweep/replay-variants.js';
export type { ReplayVariant, ReplayVariantName } from './sweep/replay-variants.js';
export { cellKey, makeCell } from './sweep/bench-cell.js';
export type { BenchCell, SweepName } from './sweep/bench-cell.js';
export { planBench } from './sweep/bench-plan.js';
export type { BenchPlan, SkippedCell } from './sweep/bench-plan.js';
export { backgroundArrayBytes, memoryNeed, whyNotFits } from './sweep/memory-bounds.js';
export type { MemoryBounds, MemoryNeed } from './sweep/memory-bounds.js';
export { measureCopyCeilings, ceilingPaths } from './baselines/copy-ceiling.js';
export type { CeilingMeasurement, CeilingPath, CopyCeiling, CopyCeilingOptions } from './baselines/copy-ceiling.js';
export type { CheckpointAvailability, CheckpointProvider, CheckpointSession } from './baselines/checkpoint-provider.js';
export { cuptiCheckpointProvider } from './baselines/cupti-checkpoint-provider.js';
export type { NativeCheckpointCapability } from './baselines/cupti-checkpoint-provider.js';
export { createBackgroundStreams } from './measure/background-streams.js';
export type { BackgroundMeasurement, BackgroundStreams } from './measure/background-streams.js';
export { startRssSampler } from './measure/rss-sampler.js';
export type { RssMeasurement, RssSampler } from './measure/rss-sampler.js';
export type { RunControl, RunMeasurement, RunMemory, StopReason } from './measure/run-measurement.js';
export { benchReportSchema, benchReportVersion } from './report/bench-report.js';
export { benchReportJsonSchema, benchReportSchemaId } from './report/bench-report-json-schema.js';
export type { BenchReport, BenchRow, ReportDevice } from './report/bench-report.js';
export type { DispatchSample, SampleBytes } from './report/dispatch-sample.js';
export type { AchievedBandwidth, PhaseMilliseconds, RowSummary } from './report/row-summary.js';
export type { RowRatios } from './report/row-ratios.js';
export { meaningfulFitRSquared, passCostFitCaveat } from './report/pass-cost-fit.js';
export type { FitCoefficients, PassCostFit } from './report/pass-cost-fit.js';
export type { MachineInfo, ReportVersions } from './report/machine-info.js';
export { BenchReportError } from './report/bench-report-error.js';
export { parseBenchReport, readBenchReport } from './report/parse-bench-report.js';
export { parseReportDocument, readReportDocument } from './report/report-document.js';
export type { ReportDocument } from './report/report-document.js';
export { jsonSchemaProblem } from './report/json-schema-check.js';
export { kreplaySchemaId } from './report/json-schema-parts.js';
export { kreplayDocumentSchemas } from './report/document-schemas.js';
export { writeBenchReport, writeBenchReportSync, writeHtmlReport, writeReportFile, writeReportFileSync } from './report/write-report-files.js';
export { writeFileAtomic, writeFileAtomicSync } from './report/write-file-atomic.js';
export { formatReportTable } from './report/format-report-table.js';
export { renderHtmlReport } from './html/render-html-report.js';
export { benchComparisonSchemaId, benchComparisonVersion, compareReports } from './compare/compare-reports.js';
export { benchComparisonJsonSchema } from './compare/bench-comparison-json-schema.js';
export type { MetricChange, ReportComparison } from './compare/compare-reports.js';
export { reportMetrics } from './compare/report-metrics.js';
export type { MetricDirection, ReportMetric } from './compare/report-metrics.js';
export { formatComparison } from './compare/format-comparison.js';
export {
  ProfileReportError,
  achievedDramBytesPerSecond,
  achievedFlopsPerSecond,
  compareProfiles,
  defaultProfileThresholds,
  describeThresholds,
  durationMetric,
  formatDuration,
  formatMetricValue,
  formatNcuNumber,
  formatProfileComparison,
  formatProfileTable,
  kernelNameOf,
  launchMatches,
  matchLaunches,
  ncuBaseUnit,
  parseProfileReport,
  profileComparisonJsonSchema,
  profileComparisonSchemaId,
  profileComparisonVersion,
  profileReportJsonSchema,
  profileReportProblem,
  profileReportSchemaId,
  profileReportVersion,
  readProfileReport,
  relativeChange,
  renderProfileHtml,
  rooflineMetrics,
  rooflinePeak,
  scaleToNcuUnit,
  speedOfLightMetrics,
  summarizeKernels,
  unnamedKernel,
} from './profile/index.js';
export type {
  ComparedProfile,
  CompareProfilesOptions,
  KernelMetricDelta,
  KernelSummary,
  LaunchDimensions,
  LaunchMatch,
  LaunchPair,
  MatchedLaunches,
  MetricValues,
  NcuNumberStyle,
  Precision,
  ProfileComparison,
  ProfileDocument,
  ProfileDocumentRange,
  ProfileDocumentRow,
  ProfileThresholds,
  RooflinePoint,
  ScaledValue,
  UnmatchedLaunch,
  UnmatchedProfileLaunch,
} from './profile/index.js';
export {
  calibrateResultJsonSchema,
  calibrateResultSchemaId,
  calibrateResultVersion,
  captureReplayResultJsonSchema,
  captureReplayResultSchemaId,
  captureReplayResultVersion,
  captureResultJsonSchema,
  captureResultSchemaId,
  captureResultVersion,
  demoResultJsonSchema,
  demoResultSchemaId,
  demoResultVersion,
  infoResultJsonSchema,
  infoResultSchemaId,
  infoResultVersion,
  overheadResultJsonSchema,
  overheadResultSchemaId,
  overheadResultVersion,
  profileMetricListJsonSchema,
  profileMetricListSchemaId,
  profileMetricListVersion,
  profileSectionListJsonSchema,
  profileSectionListSchemaId,
  profileSectionListVersion,
  replayResultJsonSchema,
  replayResultSchemaId,
  replayResultVersion,
} from './result-schemas/index.js';
export {
  SlurmError,
  runSlurmBench,
  batchScript,
  collectTaskReports,
  defaultSlurmTools,
  submitBenchArrays,
  waitForArrays,
} from './slurm/index.js';
export type {
  ArrayTaskState,
  MissingReport,
  SlurmBenchHooks,
  SlurmBenchPlan,
  SlurmBenchResult,
  SlurmTools,
  SubmittedArray,
  TaskReportCollection,
} from './slurm/index.js';
export { exactBytes, formatBytes, formatMilliseconds, formatRate, formatRatio } from './format-units.js';
export {
  compareByDevice,
  deviceComparisonJsonSchema,
  deviceComparisonSchemaId,
  deviceComparisonVersion,
  formatDeviceComparison,
  renderDeviceComparisonHtml,
} from './by-device/index.js';
export type { ComparedDevice, DeviceCell, DeviceComparison, DeviceComparisonRow, SourcedReport } from './by-device/index.js';
export { reportFileName } from './slurm/index.js';
export type { ArrivedReport } from './slurm/index.js';
export { measureReplayOverhead, overheadVariants, shapeWorkload } from './overhead/index.js';
export type { DeviceRates, OverheadOptions, OverheadResult, OverheadRow, OverheadVariant, WorkloadShape } from './overhead/index.js';
