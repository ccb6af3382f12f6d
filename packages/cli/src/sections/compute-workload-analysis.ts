import type { ComputeCapabilityRange, SectionDefinition, SectionMetric } from './section-definition.js';

/**
 * `ComputeWorkloadAnalysis` ("Compute Workload Analysis"): instructions per cycle and how busy
 * each pipeline of the SMs was, over elapsed cycles and over active cycles (ncu's charts: on the
 * raw page).
 */

type Over = 'elapsed' | 'active';

const only = (...capabilities: number[]): ComputeCapabilityRange[] => capabilities.map((capability) => ({ min: capability, max: capability }));
const tensorCore = only(100, 103, 110);
const hopperAndNewer: ComputeCapabilityRange[] = [...only(90), { min: 100 }];

/** The pipelines' cycles active, as % of peak over elapsed or active cycles. */
function pipeCycles(over: Over): SectionMetric[] {
  const pct = `avg.pct_of_peak_sustained_${over}`;
  return [
    { label: 'ALU', name: `sm__pipe_alu_cycles_active.${pct}` },
    { label: 'FMA', name: `sm__pipe_fma_cycles_active.${pct}` },
    { label: 'FP64', name: `sm__pipe_fp64_cycles_active.${pct}` },
    { label: 'TC', name: `sm__pipe_tc_cycles_active.${pct}`, on: tensorCore },
    { label: 'Tensor (All)', name: `sm__pipe_tensor_cycles_active.${pct}`, options: [{ name: `sm__pipe_tensor_cycles_active_v2.${pct}`, on: only(89) }] },
    {
      label: 'Tensor (DP)',
      name: `sm__pipe_tensor_op_dmma_cycles_active.${pct}`,
      on: only(80, 90),
      options: [{ name: `sm__pipe_tensor_subpipe_dmma_cycles_active.${pct}`, on: only(100) }],
    },
    {
      label: 'Tensor (FP)',
      name: `sm__pipe_tensor_op_hmma_cycles_active.${pct}`,
      options: [
        { name: `sm__pipe_tensor_op_hmma_cycles_active_v2.${pct}`, on: only(89) },
        { name: `sm__pipe_tensor_subpipe_hmma_cycles_active.${pct}`, on: [{ min: 100 }] },
      ],
    },
    {
      label: 'Tensor (INT)',
      name: `sm__pipe_tensor_op_imma_cycles_active.${pct}`,
      on: [{ min: 75 }],
      options: [
        { name: `sm__pipe_tensor_op_imma_cycles_active_v2.${pct}`, on: only(89) },
        { name: `sm__pipe_tensor_subpipe_imma_cycles_active.${pct}`, on: [{ min: 100 }] },
      ],
    },
    { label: 'Shared (FP64+Tensor)', name: `sm__pipe_shared_cycles_active.${pct}`, on: only(75, 80, 90, 100) },
    { label: 'TMA', name: `sm__pipe_tma_cycles_active.${pct}`, on: hopperAndNewer },
    { label: 'TMEM (Tensor Memory)', name: `sm__mem_tensor_cycles_active.${pct}`, on: tensorCore },
  ];
}

/** The pipelines' instructions executed, as % of peak over elapsed or active cycles. */
function pipeInstructions(over: Over): SectionMetric[] {
  const pct = `avg.pct_of_peak_sustained_${over}`;
  const fp64Split: ComputeCapabilityRange[] = [{ min: 86, max: 89 }, ...only(103), { min: 120, max: 121 }];
  return [
    { label: 'ADU', name: `sm__inst_executed_pipe_adu.${pct}` },
    { label: 'ALU', name: `sm__inst_executed_pipe_alu.${pct}` },
    { label: 'CBU', name: `sm__inst_executed_pipe_cbu.${pct}` },
    { label: 'FMA', name: `sm__inst_executed_pipe_fma.${pct}` },
    { label: 'FP16', name: `sm__inst_executed_pipe_fp16.${pct}`, on: [{ max: 80 }], options: [{ name: `sm__inst_executed_pipe_fma_type_fp16.${pct}`, on: [{ min: 86 }] }] },
    { label: 'FP64 (DMMA)', name: `sm__inst_executed_pipe_fp64_op_dmma.${pct}`, on: fp64Split },
    { label: 'FP64 (FP64)', name: `sm__inst_executed_pipe_fp64_op_fp64.${pct}`, on: fp64Split },
    { label: 'FP64', name: `sm__inst_executed_pipe_fp64.${pct}`, on: [{ max: 75 }, ...only(80), { min: 90 }] },
    { label: 'LSU', name: `sm__inst_executed_pipe_lsu.${pct}` },
    { label: 'TC', name: `sm__inst_executed_pipe_tc.${pct}`, on: tensorCore },
    {
      label: 'Tensor (DP)',
      name: `sm__inst_executed_pipe_tensor_op_dmma.${pct}`,
      on: only(80, 90),
      options: [{ name: `sm__inst_executed_pipe_tensor_subpipe_dmma.${pct}`, on: only(100) }],
    },
    { label: 'Tensor (Warp Group)', name: `sm__inst_executed_pipe_tensor_op_gmma.${pct}`, on: only(90) },
    {
      label: 'Tensor (FP)',
      name: `sm__inst_executed_pipe_tensor_op_hmma.${pct}`,
      options: [
        { name: `sm__inst_executed_pipe_tensor_op_hmma_v2.${pct}`, on: only(89) },
        { name: `sm__inst_executed_pipe_tensor_subpipe_hmma.${pct}`, on: [{ min: 100 }] },
      ],
    },
    {
      label: 'Tensor (INT)',
      name: `sm__inst_executed_pipe_tensor_op_imma.${pct}`,
      on: [{ min: 75 }],
      options: [
        { name: `sm__inst_executed_pipe_tensor_op_imma_v2.${pct}`, on: only(89) },
        { name: `sm__inst_executed_pipe_tensor_subpipe_imma.${pct}`, on: [{ min: 100 }] },
      ],
    },
    { label: 'TEX', name: `sm__inst_executed_pipe_tex.${pct}` },
    { label: 'TMA', name: `sm__inst_executed_pipe_tma.${pct}`, on: hopperAndNewer },
    { label: 'TMEM', name: `sm__inst_executed_pipe_tmem.${pct}`, on: tensorCore },
    { label: 'Uniform', name: `sm__inst_executed_pipe_uniform.${pct}`, on: [{ min: 75 }] },
    { label: 'WorkID/CLC', name: `sm__inst_executed_pipe_workid.${pct}`, on: [{ min: 100 }] },
    { label: 'XU', name: `sm__inst_executed_pipe_xu.${pct}` },
  ];
}

export const computeWorkloadAnalysis: SectionDefinition = {
  identifier: 'ComputeWorkloadAnalysis',
  displayName: 'Compute Workload Analysis',
  order: 20,
  sets: ['detailed', 'full'],
  header: [
    { label: 'Executed Ipc Elapsed', name: 'sm__inst_executed.avg.per_cycle_elapsed' },
    { label: 'SM Busy', name: 'sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed' },
    { label: 'Executed Ipc Active', name: 'sm__inst_executed.avg.per_cycle_active' },
    { label: 'Issue Slots Busy', name: 'sm__inst_issued.avg.pct_of_peak_sustained_elapsed' },
    { label: 'Issued Ipc Active', name: 'sm__inst_issued.avg.per_cycle_active' },
  ],
  body: [
    { label: 'Max. Issued Slots Busy', name: 'sm__inst_issued.max.pct_of_peak_sustained_elapsed' },
    ...pipeCycles('elapsed'),
    ...pipeInstructions('elapsed'),
    ...pipeCycles('active'),
    ...pipeInstructions('active'),
  ],
  leftOut: [],
};
