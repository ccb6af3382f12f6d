import { dramArchitectures, type SectionDefinition } from './section-definition.js';

/**
 * `SpeedOfLight_RooflineChart` ("GPU Speed Of Light Roofline Chart"): what ncu's roofline chart
 * is drawn from (floating-point operations per cycle achieved and at peak, the clocks, DRAM bytes
 * per second). ncu prints no table for it, only its chart and a rule's note, so its metrics are on
 * the raw page only.
 */
export const speedOfLightRooflineChart: SectionDefinition = {
  identifier: 'SpeedOfLight_RooflineChart',
  displayName: 'GPU Speed Of Light Roofline Chart',
  order: 11,
  sets: ['detailed', 'full', 'roofline'],
  header: [],
  body: [
    { label: 'Theoretical Predicated-On FFMA Thread Instructions Executed', name: 'sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained' },
    { label: 'Theoretical Predicated-On DFMA Thread Instructions Executed', name: 'sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained' },
    { label: 'Predicated-On FFMA Thread Instructions Executed Per Cycle', name: 'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed' },
    { label: 'Predicated-On DFMA Thread Instructions Executed Per Cycle', name: 'smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed' },
    { label: 'Predicated-On FADD Thread Instructions Executed Per Cycle', name: 'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed' },
    { label: 'Predicated-On FMUL Thread Instructions Executed Per Cycle', name: 'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed' },
    { label: 'Predicated-On DADD Thread Instructions Executed Per Cycle', name: 'smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed' },
    { label: 'Predicated-On DMUL Thread Instructions Executed Per Cycle', name: 'smsp__sass_thread_inst_executed_op_dmul_pred_on.sum.per_cycle_elapsed' },
    { label: 'SM Frequency', name: 'sm__cycles_elapsed.avg.per_second' },
    { label: 'SM Frequency', name: 'smsp__cycles_elapsed.avg.per_second' },
    { label: 'Theoretical DRAM Bytes Accessible', name: 'dram__bytes.sum.peak_sustained', on: dramArchitectures },
    { label: 'DRAM Frequency', name: 'dram__cycles_elapsed.avg.per_second', on: dramArchitectures },
    { label: 'DRAM Bandwidth', name: 'dram__bytes.sum.per_second', on: dramArchitectures },
  ],
  leftOut: [
    {
      names: [
        'derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2',
        'derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2',
        'derived__smsp__sass_thread_inst_executed_op_ffma_pred_on_x2',
        'derived__smsp__sass_thread_inst_executed_op_dfma_pred_on_x2',
      ],
      reason: 'ncu defines them as twice the FMA metrics above (an FMA is two operations); the raw page holds the metrics they double',
    },
  ],
};
