import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchScript, reportFileName } from './batch-script.js';
import type { BatchScriptPlan } from './batch-script.js';
import { runSlurm } from './slurm-commands.js';
import type { SlurmTools } from './slurm-commands.js';
import { SlurmError } from './slurm-error.js';

/** What `kreplay bench --slurm` submits. */
export interface SlurmBenchPlan extends Omit<BatchScriptPlan, 'partition'> {
  /** One job array per partition (e.g. one per GPU generation); empty for the default partition. */
  readonly partitions: readonly string[];
}

/** One submitted job array. */
export interface SubmittedArray {
  readonly jobId: string;
  readonly partition: string | undefined;
  readonly tasks: number;
  /** The report path of each task, by task id. */
  readonly reportPaths: readonly string[];
  /** The log path of each task, by task id. */
  readonly logPaths: readonly string[];
}

/**
 * Checks the plan against the cluster (the bundle exists, every partition is known), writes one
 * batch script per partition into the out directory and submits each as a job array.
 * @throws SlurmError for a missing sbatch, an unknown partition, a missing bundle or a refused submission.
 */
export async function submitBenchArrays(plan: SlurmBenchPlan, tools: SlurmTools): Promise<SubmittedArray[]> {
  if (!existsSync(join(plan.bundleDirectory, 'kreplay.mjs')) || !existsSync(join(plan.bundleDirectory, 'kreplay.node'))) {
    throw new SlurmError(
      `${plan.bundleDirectory} does not hold kreplay.mjs and kreplay.node`,
      'Pass a bundle folder on a filesystem every node sees with --bundle: an npm install of @kreplay/cli assembles one by itself; in the kreplay repository build it with pnpm --filter @kreplay/cli bundle',
    );
  }
  if (!Number.isSafeInteger(plan.nodes) || plan.nodes < 1) {
    throw new SlurmError(`--nodes must be a whole number >= 1, got ${String(plan.nodes)}`, 'Pass e.g. --nodes 2');
  }
  const known = (await runSlurm(tools, 'sinfo', ['-h', '-o', '%R'])).split('\n').map((line) => line.trim()).filter(Boolean);
  const unknown = plan.partitions.filter((partition) => !known.includes(partition));
  if (unknown.length > 0) {
    throw new SlurmError(`unknown partition ${unknown.join(', ')}; the cluster has ${known.join(', ') || 'none'}`, 'Pass partitions sinfo lists');
  }
  mkdirSync(plan.outDirectory, { recursive: true });
  const partitions = plan.partitions.length > 0 ? plan.partitions : [undefined];
  const submitted: SubmittedArray[] = [];
  for (const partition of partitions) {
    const scriptPath = join(plan.outDirectory, `kreplay-bench-${partition ?? 'default'}.sbatch`);
    writeFileSync(scriptPath, batchScript({ ...plan, partition }), { mode: 0o755 });
    const output = await runSlurm(tools, 'sbatch', ['--parsable', scriptPath]);
    const jobId = output.trim().split(';')[0] ?? '';
    if (!/^\d+$/.test(jobId)) throw new SlurmError(`sbatch printed no job id (${output.trim()})`, 'Check sbatch on this machine');
    const taskIds = Array.from({ length: plan.nodes }, (_, index) => index);
    submitted.push({
      jobId,
      partition,
      tasks: plan.nodes,
      reportPaths: taskIds.map((taskId) => join(plan.outDirectory, reportFileName(partition, taskId))),
      logPaths: taskIds.map((taskId) => join(plan.outDirectory, `task-${partition ?? 'default'}-${taskId}.log`)),
    });
  }
  return submitted;
}
