import { describe, expect, it } from 'vitest';
import { exampleProfile, syntheticRooflineProfile } from '../test-support/example-profiles.js';
import { summarizeKernels } from './kernel-summary.js';
import { achievedDramBytesPerSecond, achievedFlopsPerSecond, rooflinePeak } from './roofline.js';

describe('summarizeKernels', () => {
  it('groups launches by kernel and sorts the kernels by total duration', () => {
    const profile = exampleProfile();
    const kernels = summarizeKernels(profile);
    expect(kernels).toHaveLength(42);
    expect(kernels.reduce((sum, kernel) => sum + kernel.launches, 0)).toBe(148);
    const totals = kernels.map((kernel) => kernel.totalDuration!);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(kernels.map((kernel) => kernel.rank)).toEqual(kernels.map((_, index) => index + 1));
    const first = kernels[0]!;
    const rows = profile.dispatches.filter((row) => row.kernel === first.name);
    expect(first.totalDuration).toBe(rows.reduce((sum, row) => sum + row.metrics!['gpu__time_duration.sum']!, 0));
    expect(first.meanDuration).toBeCloseTo(first.totalDuration! / rows.length, 6);
    expect(first.roofline).toEqual([]);
  });

  it('keeps the order of first launches when the profile has no duration', () => {
    const profile = syntheticRooflineProfile();
    const without = { ...profile, metrics: profile.metrics.filter((metric) => metric !== 'gpu__time_duration.sum'), dispatches: profile.dispatches.map((row) => ({ ...row, metrics: { ...row.metrics, 'gpu__time_duration.sum': null } })) };
    expect(summarizeKernels(without).map((kernel) => [kernel.name, kernel.totalDuration])).toEqual([
      ['sgemm_128x128_nn', null],
      ['vectorized_elementwise_add', null],
      ['dgemm_64x64_tn', null],
      ['copy_kernel', null],
    ]);
  });

  it('places each kernel on the roofline in the precisions it did work in', () => {
    const kernels = summarizeKernels(syntheticRooflineProfile());
    const sgemm = kernels.find((kernel) => kernel.name === 'sgemm_128x128_nn')!;
    expect(sgemm.roofline).toHaveLength(1);
    expect(sgemm.roofline[0]!.precision).toBe('single');
    expect(sgemm.roofline[0]!.flopsPerSecond).toBeCloseTo(40e12, -6);
    expect(sgemm.roofline[0]!.intensity).toBeCloseTo(40e12 / 0.6e12, 6);
    expect(kernels.find((kernel) => kernel.name === 'dgemm_64x64_tn')!.roofline.map((point) => point.precision)).toEqual(['double']);
    expect(kernels.find((kernel) => kernel.name === 'copy_kernel')!.roofline).toEqual([]);
  });
});

describe('the roofline metrics', () => {
  it('computes achieved FLOP/s as ncu\'s section does, or from instruction counts over the duration', () => {
    const clock = { 'smsp__cycles_elapsed.avg.per_second': 2e9 };
    const perCycle = { 'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed': 10, 'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed': 20, 'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed': 30 };
    expect(achievedFlopsPerSecond({ ...clock, ...perCycle }, 'single')).toBe((10 + 20 + 2 * 30) * 2e9);
    expect(achievedFlopsPerSecond(perCycle, 'single')).toBeNull();
    const counts = { 'gpu__time_duration.sum': 1000, 'sm__sass_thread_inst_executed_op_dadd_pred_on.sum': 1, 'sm__sass_thread_inst_executed_op_dmul_pred_on.sum': 2, 'sm__sass_thread_inst_executed_op_dfma_pred_on.sum': 3 };
    expect(achievedFlopsPerSecond(counts, 'double')).toBeCloseTo(9 / 1e-6, 0);
    expect(achievedFlopsPerSecond(counts, 'single')).toBeNull();
    expect(achievedDramBytesPerSecond({ 'dram__bytes.sum.per_second': 5e11 })).toBe(5e11);
    expect(achievedDramBytesPerSecond({ 'dram__bytes.sum': 1e6, 'gpu__time_duration.sum': 1e6 })).toBeCloseTo(1e9, 0);
    expect(achievedDramBytesPerSecond({ 'dram__bytes.sum': 1e6 })).toBeNull();
  });

  it('computes the roof from the peak metrics', () => {
    const peaks = { 'sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained': 16896, 'sm__cycles_elapsed.avg.per_second': 1.755e9, 'dram__bytes.sum.peak_sustained': 1279, 'dram__cycles_elapsed.avg.per_second': 2.619e9 };
    const roof = rooflinePeak(peaks, 'single')!;
    expect(roof.flopsPerSecond / 1e12).toBeCloseTo(59.3, 1);
    expect(roof.dramBytesPerSecond / 1e12).toBeCloseTo(3.35, 2);
    expect(rooflinePeak(peaks, 'double')).toBeNull();
  });
});
