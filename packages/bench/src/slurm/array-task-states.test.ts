import { describe, expect, it } from 'vitest';
import { expandTaskIds, isFinished, parseArrayTaskStates } from './array-task-states.js';

const scontrolOutput = [
  'JobId=12 ArrayJobId=11 ArrayTaskId=1 JobName=kreplay-bench-default JobState=COMPLETED Reason=None ExitCode=0:0 NodeList=gpu01 BatchHost=gpu01',
  'JobId=11 ArrayJobId=11 ArrayTaskId=0 JobName=kreplay-bench-default JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0 NodeList=gpu02',
  'JobId=11 ArrayJobId=11 ArrayTaskId=2-3 JobName=kreplay-bench-default JobState=PENDING Reason=Resources ExitCode=0:0 NodeList=',
  '',
].join('\n');

describe('parseArrayTaskStates', () => {
  it('gives one state per task, pending ranges expanded, sorted by task', () => {
    const states = parseArrayTaskStates(scontrolOutput);
    expect(states.map((state) => [state.taskId, state.state, state.exitCode, state.node])).toEqual([
      [0, 'FAILED', '1:0', 'gpu02'],
      [1, 'COMPLETED', '0:0', 'gpu01'],
      [2, 'PENDING', '0:0', ''],
      [3, 'PENDING', '0:0', ''],
    ]);
    expect(states.filter(isFinished)).toHaveLength(2);
  });

  it('ignores lines that are not array tasks, and expands task lists', () => {
    expect(parseArrayTaskStates('JobId=5 JobState=RUNNING\nslurm_load_jobs error: Invalid job id specified')).toEqual([]);
    expect(expandTaskIds('1,4-6%2')).toEqual([1, 4, 5, 6]);
  });
});
