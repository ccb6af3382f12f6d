import { join } from 'node:path';

/** What one job array runs: the benchmark, on `nodes` nodes of one partition. */
export interface BatchScriptPlan {
  /** Arguments of `kreplay bench` each task runs (without --out, which the script adds). */
  readonly benchArguments: readonly string[];
  readonly nodes: number;
  /** The partition, or undefined for the cluster's default. */
  readonly partition: string | undefined;
  /** Where task logs and reports go; must be visible to every node (a shared filesystem). */
  readonly outDirectory: string;
  /** The folder holding kreplay.mjs and kreplay.node; must be visible to every node. */
  readonly bundleDirectory: string;
  /** The Node.js executable on the nodes. */
  readonly nodeExecutable: string;
  /** Slurm time limit per task, e.g. `01:00:00`. */
  readonly timeLimit?: string;
}

/** The name of the report task `taskId` of the array for `partition` writes. */
export function reportFileName(partition: string | undefined, taskId: number | string): string {
  return `report-${partition ?? 'default'}-${taskId}.json`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The sbatch script of one job array: each task runs the whole benchmark on its node and writes its report. */
export function batchScript(plan: BatchScriptPlan): string {
  const label = plan.partition ?? 'default';
  const directives = [
    `#SBATCH --job-name=kreplay-bench-${label}`,
    `#SBATCH --array=0-${plan.nodes - 1}`,
    '#SBATCH --nodes=1',
    '#SBATCH --ntasks=1',
    '#SBATCH --exclusive',
    `#SBATCH --output=${join(plan.outDirectory, `task-${label}-%a.log`)}`,
    ...(plan.partition === undefined ? [] : [`#SBATCH --partition=${plan.partition}`]),
    ...(plan.timeLimit === undefined ? [] : [`#SBATCH --time=${plan.timeLimit}`]),
  ];
  const report = join(plan.outDirectory, reportFileName(plan.partition, '${SLURM_ARRAY_TASK_ID}'));
  const command = [
    quote(plan.nodeExecutable),
    quote(join(plan.bundleDirectory, 'kreplay.mjs')),
    'bench',
    ...plan.benchArguments.map(quote),
    '--out',
    `"${report}"`,
  ];
  return ['#!/bin/bash', ...directives, 'set -eu', `echo "kreplay bench task \${SLURM_ARRAY_TASK_ID} on $(hostname)"`, `exec ${command.join(' ')}`, ''].join('\n');
}
