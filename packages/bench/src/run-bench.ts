import os from 'node:os';
import { KreplayError } from '@kreplay/native';
import type { Runtime } from '@kreplay/native';
import type { CheckpointAvailability, CheckpointProvider } from './baselines/checkpoint-provider.js';
import { measureCopyCeilings } from './baselines/copy-ceiling.js';
import type { CopyCeiling } from './baselines/copy-ceiling.js';
import { cuptiCheckpointProvider } from './baselines/cupti-checkpoint-provider.js';
import { runCheckpointCell } from './measure/run-checkpoint-cell.js';
import type { RunControl, RunMeasurement } from './measure/run-measurement.js';
import { runReplayCell } from './measure/run-replay-cell.js';
import { benchReportSchema, benchReportVersion } from './report/bench-report.js';
import { benchReportSchemaId } from './report/bench-report-json-schema.js';
import type { BenchReport } from './report/bench-report.js';
import { buildRows } from './report/build-rows.js';
import { gitCommit, machineInfo, reportVersions } from './report/machine-info.js';
import { fitPassCosts } from './report/pass-cost-fit.js';
import type { BenchConfiguration } from './sweep/bench-configuration.js';
import { planBench } from './sweep/bench-plan.js';
import type { SkippedCell } from './sweep/bench-plan.js';
import { validateBenchConfiguration } from './sweep/validate-configuration.js';

/** Where a benchmark run is: cells done of the total, and the cell running now. */
export interface BenchProgress {
  readonly done: number;
  readonly total: number;
  readonly key: string | null;
}

/** Options of {@link runBench}. */
export interface RunBenchOptions {
  readonly configuration: BenchConfiguration;
  /** Aborting stops the run between dispatches; the report then has `complete: false`. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BenchProgress) => void;
  /**
   * Called once before anything is measured, with a function that builds the report of what was
   * measured until the moment it is called (`complete: false`, the run in flight left out),
   * synchronously: for a caller that must save it without waiting for the run to stop (a second
   * Ctrl-C).
   */
  readonly onStart?: (reportSoFar: () => BenchReport) => void;
  /** The checkpoint baseline; default the CUPTI Checkpoint API; null leaves it out. */
  readonly checkpoint?: CheckpointProvider | null;
}

/**
 * Runs a benchmark on the first agent of `runtime`: the raw copy ceiling at each footprint, then
 * every cell of the configuration's sweeps, and returns the report with every sample, the ratios to
 * the baselines and the fixed/per-pass fits. Cells the machine cannot hold are skipped with a reason.
 * @throws ArgumentError when the configuration is invalid.
 */
export async function runBench(runtime: Runtime, options: RunBenchOptions): Promise<BenchReport> {
  const configuration = validateBenchConfiguration(options.configuration);
  const createdAt = new Date();
  const agent = runtime.agents[0]!;
  const devices = runtime.agents.map((each) => ({ ...each.info, memory: each.memoryInfo() }));
  const bounds = { deviceFreeBytes: agent.memoryInfo().freeBytes, hostFreeBytes: os.freemem(), deviceIsHostMemory: runtime.driver === 'host' };
  const provider = options.checkpoint === undefined ? cuptiCheckpointProvider() : options.checkpoint;
  const checkpoint = checkpointAvailability(runtime, provider);
  const plan = planBench(configuration, bounds, checkpoint.available ? [checkpoint.provider] : []);
  const notes = [...plan.notes, ...environmentNotes(runtime, configuration)];
  const skipped: SkippedCell[] = [...plan.skipped];
  const ceilings: CopyCeiling[] = [];
  const runs: RunMeasurement[] = [];
  const aborted = () => options.signal?.aborted === true;
  const total = plan.cells.length;
  const checkpointVariants = new Set(checkpoint.available ? [checkpoint.provider] : []);
  const report = (complete: boolean): BenchReport => {
    const rows = buildRows(runs, ceilings, checkpointVariants);
    const interrupted = `interrupted after ${rows.length} of ${total} runs; the rows are what was measured until then`;
    return {
      $schema: benchReportSchemaId,
      schema: benchReportSchema,
      version: benchReportVersion,
      complete,
      createdAt: createdAt.toISOString(),
      durationSeconds: (Date.now() - createdAt.getTime()) / 1000,
      machine: machineInfo(),
      driver: runtime.driver,
      devices,
      versions: reportVersions(runtime),
      gitCommit: gitCommit(),
      configuration,
      baselines: { copyCeilings: [...ceilings], checkpoint },
      rows,
      fits: fitPassCosts(rows),
      skipped: [...skipped],
      notes: complete ? [...notes] : [...notes, interrupted],
    };
  };
  options.onStart?.(() => report(false));
  options.onProgress?.({ done: 0, total, key: null });
  const footprints = [...new Set(plan.cells.map((cell) => cell.footprintBytes))].sort((a, b) => a - b);
  try {
    const ceilingOptions = { repetitions: configuration.ceilingRepetitions, bufferBytes: configuration.ceilingBufferBytes, signal: options.signal };
    ceilings.push(...(await measureCopyCeilings(agent, footprints, ceilingOptions)));
  } catch (error) {
    if (!(error instanceof KreplayError)) throw error;
    notes.push(`no copy ceiling: ${error.message}`);
  }
  const control: RunControl = { ...configuration, signal: options.signal };
  for (const [index, cell] of plan.cells.entries()) {
    if (aborted()) break;
    options.onProgress?.({ done: index, total, key: cell.key });
    try {
      const run = provider && cell.variant === checkpoint.provider ? runCheckpointCell(runtime, provider, cell, control) : runReplayCell(runtime, cell, control);
      runs.push(await run);
    } catch (error) {
      if (!(error instanceof KreplayError)) throw error;
      skipped.push({ key: cell.key, reason: `failed: ${error.message}` });
    }
  }
  if (!aborted()) options.onProgress?.({ done: total, total, key: null });
  return report(!aborted());
}

function checkpointAvailability(runtime: Runtime, provider: CheckpointProvider | null): CheckpointAvailability {
  if (provider === null) return { provider: 'none', available: false, reason: 'left out by the caller' };
  const reason = provider.unavailableReason(runtime);
  return { provider: provider.name, available: reason === null, reason };
}

function environmentNotes(runtime: Runtime, configuration: BenchConfiguration): string[] {
  const notes: string[] = [];
  if (runtime.driver === 'host') notes.push('host driver: "device" memory is host RAM, so the process RSS includes the workload and device staging');
  if (configuration.streamSweep.values.length > 0) notes.push("background streams' arrays are tagged excluded, so every strategy snapshots the same footprint");
  return notes;
}
