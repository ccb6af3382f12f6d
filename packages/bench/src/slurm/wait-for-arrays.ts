import { setTimeout as sleep } from 'node:timers/promises';
import { isFinished, parseArrayTaskStates } from './array-task-states.js';
import type { ArrayTaskState } from './array-task-states.js';
import { runSlurm } from './slurm-commands.js';
import type { SlurmTools } from './slurm-commands.js';
import type { SubmittedArray } from './submit-bench-arrays.js';

/** Options of {@link waitForArrays}. */
export interface WaitOptions {
  /** How often to ask Slurm. Default 1000 ms. */
  readonly pollMilliseconds?: number;
  /** Give up after this long (the tasks keep running). Default: never. */
  readonly timeoutMilliseconds?: number;
  /** Called after each poll with how many tasks have finished. */
  readonly onProgress?: (finished: number, total: number) => void;
  /** Stops waiting early (Ctrl-C); the states seen so far are returned. */
  readonly signal?: AbortSignal;
}

/** The state of every task of every array, as far as Slurm still knows it. */
export async function arrayStates(arrays: readonly SubmittedArray[], tools: SlurmTools): Promise<Map<SubmittedArray, ArrayTaskState[]>> {
  const states = new Map<SubmittedArray, ArrayTaskState[]>();
  for (const array of arrays) {
    const output = await runSlurm(tools, 'scontrol', ['-o', 'show', 'job', array.jobId]).catch(() => '');
    states.set(array, parseArrayTaskStates(output));
  }
  return states;
}

/**
 * Waits until every task of every array has finished (completed, failed, cancelled, timed out...),
 * or the timeout or signal ends the wait, and returns the last states seen.
 */
export async function waitForArrays(
  arrays: readonly SubmittedArray[],
  tools: SlurmTools,
  options: WaitOptions = {},
): Promise<Map<SubmittedArray, ArrayTaskState[]>> {
  const total = arrays.reduce((sum, array) => sum + array.tasks, 0);
  const deadline = options.timeoutMilliseconds === undefined ? Infinity : Date.now() + options.timeoutMilliseconds;
  for (;;) {
    const states = await arrayStates(arrays, tools);
    const finished = [...states.values()].flat().filter(isFinished).length;
    options.onProgress?.(finished, total);
    const forgotten = [...states.values()].some((tasks) => tasks.length === 0);
    if (finished >= total || forgotten || Date.now() >= deadline || options.signal?.aborted) return states;
    await sleep(options.pollMilliseconds ?? 1000, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
