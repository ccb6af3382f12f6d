import type { SectionDefinition, SectionMetric } from './section-definition.js';

/**
 * `WarpStateStats` ("Warp State Statistics"): the cycles a warp spent between two instructions,
 * and in which stall state (ncu's chart of stall reasons: on the raw page).
 */

const stall = (label: string, reason: string, on?: SectionMetric['on']): SectionMetric => ({
  label,
  name: `smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio`,
  ...(on && { on }),
});

export const warpStateStatistics: SectionDefinition = {
  identifier: 'WarpStateStats',
  displayName: 'Warp State Statistics',
  order: 50,
  sets: ['full'],
  header: [
    { label: 'Warp Cycles Per Issued Instruction', name: 'smsp__average_warp_latency_per_inst_issued.ratio' },
    { label: 'Avg. Active Threads Per Warp', name: 'smsp__thread_inst_executed_per_inst_executed.ratio' },
    { label: 'Warp Cycles Per Executed Instruction', name: 'smsp__average_warps_active_per_inst_executed.ratio' },
    { label: 'Avg. Not Predicated Off Threads Per Warp', name: 'smsp__thread_inst_executed_pred_on_per_inst_executed.ratio' },
  ],
  body: [
    { label: 'Issued Warp Per Scheduler', name: 'smsp__issue_active.avg.per_cycle_active' },
    stall('Stall Drain', 'drain'),
    stall('Stall IMC Miss', 'imc_miss', [{ max: 90 }]),
    stall('Stall Barrier', 'barrier'),
    stall('Stall GMMA', 'gmma', [{ min: 90, max: 90 }]),
    stall('Stall Branch Resolving', 'branch_resolving'),
    stall('Stall Membar', 'membar'),
    stall('Stall Short Scoreboard', 'short_scoreboard'),
    stall('Stall Sleeping', 'sleeping'),
    stall('Stall Wait', 'wait'),
    stall('Stall No Instruction', 'no_instruction'),
    stall('Stall Math Pipe Throttle', 'math_pipe_throttle'),
    stall('Stall Tex Throttle', 'tex_throttle'),
    stall('Stall LG Throttle', 'lg_throttle'),
    stall('Stall Dispatch Stall', 'dispatch_stall'),
    stall('Stall Misc', 'misc'),
    stall('Stall Not Selected', 'not_selected'),
    stall('Selected', 'selected'),
    stall('Stall Long Scoreboard', 'long_scoreboard'),
    stall('Stall MIO Throttle', 'mio_throttle'),
  ],
  leftOut: [],
};
