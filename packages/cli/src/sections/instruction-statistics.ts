import type { SectionDefinition } from './section-definition.js';

/** `InstructionStats` ("Instruction Statistics"): the warp-level instructions executed and issued. */
export const instructionStatistics: SectionDefinition = {
  identifier: 'InstructionStats',
  displayName: 'Instruction Statistics',
  order: 60,
  sets: ['full'],
  header: [
    { label: 'Executed Instructions', name: 'smsp__inst_executed.sum' },
    { label: 'Avg. Executed Instructions Per Scheduler', name: 'smsp__inst_executed.avg' },
    { label: 'Issued Instructions', name: 'smsp__inst_issued.sum' },
    { label: 'Avg. Issued Instructions Per Scheduler', name: 'smsp__inst_issued.avg' },
  ],
  body: [],
  leftOut: [
    {
      names: ['inst_executed', 'sass__inst_executed_per_opcode', 'sass__inst_executed_per_opcode_category'],
      reason: "ncu counts these per opcode with SASS instrumentation, which CUPTI's range profiler does not collect",
    },
  ],
};
