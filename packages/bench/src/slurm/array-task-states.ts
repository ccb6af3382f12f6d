/** What became of one task of a job array. */
export interface ArrayTaskState {
  readonly jobId: string;
  readonly taskId: number;
  /** Slurm's JobState, e.g. PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT. */
  readonly state: string;
  /** `exit:signal`, e.g. `0:0`, `1:0`. */
  readonly exitCode: string;
  readonly node: string;
}

const finishedStates = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE']);

/** True once a task will not change any more. */
export function isFinished(state: ArrayTaskState): boolean {
  return finishedStates.has(state.state);
}

function field(line: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}=(\\S*)`).exec(line)?.[1];
}

/**
 * Parses `scontrol -o show job JOBID` (one line per array task) into task states. Lines that are
 * not tasks of an array (no ArrayTaskId) are skipped; a pending range such as `ArrayTaskId=2-3`
 * gives one state per task.
 */
export function parseArrayTaskStates(output: string): ArrayTaskState[] {
  const states: ArrayTaskState[] = [];
  for (const line of output.split('\n')) {
    const taskField = field(line, 'ArrayTaskId');
    const jobId = field(line, 'ArrayJobId');
    if (!taskField || !jobId) continue;
    const state = field(line, 'JobState') ?? 'UNKNOWN';
    const exitCode = field(line, 'ExitCode') ?? '';
    const node = field(line, 'NodeList') ?? '';
    for (const taskId of expandTaskIds(taskField)) states.push({ jobId, taskId, state, exitCode, node });
  }
  return states.sort((left, right) => left.taskId - right.taskId);
}

/** `3`, `2-5`, `1,4-6` or `0-9%2` as task numbers. */
export function expandTaskIds(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.replace(/%\d+$/, '').split(',')) {
    const [first, last] = part.split('-').map(Number);
    if (first === undefined || Number.isNaN(first)) continue;
    for (let id = first; id <= (last ?? first); id += 1) ids.push(id);
  }
  return ids;
}
