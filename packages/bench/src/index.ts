/**
 * @kreplay/bench — workloads, measurements, baselines and reports for kernel replay.
 */
export { measureNativeCalls, splitPlan } from './native-call-benchmark.js';
export type {
  CopyPlanThroughput,
  NativeCallBenchmarkOptions,
  NativeCallBenchmarkResult,
} from './native-call-benchmark.js';
export { median, secondsSince } from './statistics.js';
export { createScatterWorkload } from './workloads/scatter-workload.js';
export type { ScatterWorkload, ScatterWorkloadOptions, WorkloadDispatch } from './workloads/scatter-workload.js';
export { strategyByName, strategyNames } from './strategy-by-name.js';
export type { StrategyName } from './strategy-by-name.js';
export { runReplayExperiment } from './replay-experiment.js';
export type { ReplayExperimentOptions, ReplayExperimentResult } from './replay-experiment.js';
export { measureWindowCost } from './window-cost-benchmark.js';
export type { WindowCost, WindowCostOptions, WindowCostResult } from './window-cost-benchmark.js';
