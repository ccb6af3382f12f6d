import { compareByDevice } from '../by-device/device-comparison.js';
import type { DeviceComparison, SourcedReport } from '../by-device/device-comparison.js';
import { readBenchReport } from '../report/parse-bench-report.js';
import { collectTaskReports } from './collect-task-reports.js';
import type { SlurmTools } from './slurm-commands.js';
import { submitBenchArrays } from './submit-bench-arrays.js';
import type { SlurmBenchPlan, SubmittedArray } from './submit-bench-arrays.js';
import { waitForArrays } from './wait-for-arrays.js';
import type { WaitOptions } from './wait-for-arrays.js';

/** Hooks of {@link runSlurmBench}, for progress and Ctrl-C. */
export interface SlurmBenchHooks extends WaitOptions {
  /** Called once the arrays are submitted. */
  readonly onSubmitted?: (arrays: readonly SubmittedArray[]) => void;
}

/** What a Slurm benchmark produced: the merged comparison and the arrays behind it. */
export interface SlurmBenchResult {
  readonly arrays: readonly SubmittedArray[];
  readonly comparison: DeviceComparison;
}

/**
 * Runs the benchmark matrix as Slurm job arrays (one per partition, one task per node), waits for
 * them, reads every report that arrived and merges them by device. Tasks that wrote no report, and
 * reports that do not parse, are listed in the comparison's `missing` and make it incomplete.
 * @throws SlurmError when the arrays cannot be submitted (missing sbatch, unknown partition, no bundle).
 */
export async function runSlurmBench(plan: SlurmBenchPlan, tools: SlurmTools, hooks: SlurmBenchHooks = {}): Promise<SlurmBenchResult> {
  const arrays = await submitBenchArrays(plan, tools);
  hooks.onSubmitted?.(arrays);
  const states = await waitForArrays(arrays, tools, hooks);
  const collection = collectTaskReports(states);
  const reports: SourcedReport[] = [];
  const missing = collection.missing.map((task) => task.reason);
  for (const arrived of collection.arrived) {
    try {
      reports.push({ source: arrived.path, report: await readBenchReport(arrived.path) });
    } catch (error) {
      missing.push(`task ${arrived.taskId} (${arrived.partition ?? 'default partition'}) wrote an unreadable report: ${(error as Error).message}`);
    }
  }
  return { arrays, comparison: compareByDevice(reports, missing) };
}
