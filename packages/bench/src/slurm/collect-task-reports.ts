import { existsSync, readFileSync } from 'node:fs';
import type { ArrayTaskState } from './array-task-states.js';
import type { SubmittedArray } from './submit-bench-arrays.js';

/** A report a task wrote. */
export interface ArrivedReport {
  readonly partition: string | undefined;
  readonly taskId: number;
  readonly node: string;
  readonly path: string;
}

/** A task that wrote no report, and why as far as Slurm and its log say. */
export interface MissingReport {
  readonly partition: string | undefined;
  readonly taskId: number;
  readonly state: string;
  readonly exitCode: string;
  readonly reason: string;
}

/** Which reports arrived and which did not. */
export interface TaskReportCollection {
  readonly arrived: readonly ArrivedReport[];
  readonly missing: readonly MissingReport[];
  /** True when every task wrote its report. */
  readonly complete: boolean;
}

function lastLines(path: string, count: number): string {
  if (!existsSync(path)) return '';
  return readFileSync(path, 'utf8').trim().split('\n').slice(-count).join(' | ');
}

/** Pairs each task with its report file, explaining every task that wrote none. */
export function collectTaskReports(states: ReadonlyMap<SubmittedArray, readonly ArrayTaskState[]>): TaskReportCollection {
  const arrived: ArrivedReport[] = [];
  const missing: MissingReport[] = [];
  for (const [array, tasks] of states) {
    for (let taskId = 0; taskId < array.tasks; taskId += 1) {
      const state = tasks.find((task) => task.taskId === taskId);
      const path = array.reportPaths[taskId]!;
      if (existsSync(path)) {
        arrived.push({ partition: array.partition, taskId, node: state?.node ?? '', path });
        continue;
      }
      const log = lastLines(array.logPaths[taskId]!, 2);
      const slurmState = state?.state ?? 'UNKNOWN';
      const exitCode = state?.exitCode ?? '';
      missing.push({
        partition: array.partition,
        taskId,
        state: slurmState,
        exitCode,
        reason: `task ${taskId} of job ${array.jobId} (${array.partition ?? 'default partition'}) ended ${slurmState}${exitCode ? ` with exit ${exitCode}` : ''} and wrote no report${log ? `; its log ends: ${log}` : ''}`,
      });
    }
  }
  return { arrived, missing, complete: missing.length === 0 };
}
