import { describe, expect, it } from 'vitest';
import { ArgumentError } from '../errors/argument-error.js';
import { DriverError } from '../errors/driver-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { planCuptiMetrics } from './profiler.js';
import { queryCuptiMetrics } from './cupti-metric-catalog.js';

const speedOfLight = [
  'gpu__time_duration.sum',
  'sm__throughput.avg.pct_of_peak_sustained_elapsed',
  'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed',
  'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed',
  'l1tex__throughput.avg.pct_of_peak_sustained_active',
  'lts__throughput.avg.pct_of_peak_sustained_elapsed',
];

/** Whether libcupti.so loads in this process (CUPTI's host API needs no GPU). */
const cupti = await planCuptiMetrics({ chip: 'GH100', metrics: ['gpu__time_duration.sum'] }).then(
  () => ({ available: true, reason: '' }),
  (error: unknown) => {
    if (error instanceof UnsupportedError) return { available: false, reason: error.message };
    throw error;
  },
);

describe('runtime.profiler', () => {
  it('is absent on the host driver', async () => {
    await using runtime = await openRuntime({ driver: 'host', host: { deviceMemoryBytes: 1 << 20, threads: 1 } });
    expect(runtime.profiler).toBeUndefined();
  });

  it('refuses malformed metric lists before loading anything', async () => {
    for (const metrics of [[], ['a b'], [3], 'gpu__time_duration.sum']) {
      await expect(planCuptiMetrics({ chip: 'GH100', metrics: metrics as never })).rejects.toBeInstanceOf(ArgumentError);
    }
    await expect(planCuptiMetrics({ chip: '', metrics: ['gpu__time_duration.sum'] })).rejects.toBeInstanceOf(ArgumentError);
  });
});

describe.skipIf(!cupti.available)(`planCuptiMetrics with CUPTI's host API${cupti.available ? '' : ` (${cupti.reason})`}`, () => {
  it('plans one pass for the duration and several for the SpeedOfLight throughputs on GH100', async () => {
    const duration = await planCuptiMetrics({ chip: 'GH100', metrics: ['gpu__time_duration.sum'] });
    expect(duration).toMatchObject({ chip: 'GH100', passCount: 1, units: ['nanosecond'] });
    const plan = await planCuptiMetrics({ chip: 'GH100', metrics: speedOfLight });
    expect(plan.passCount).toBeGreaterThan(1);
    expect(plan.configImageBytes).toBeGreaterThan(duration.configImageBytes);
    expect(plan.units).toEqual(['nanosecond', 'percent', 'percent', 'percent', 'percent', 'percent']);
  });

  it("lists the chip's metrics with CUPTI's units, and a metric's sub-metrics", async () => {
    const metrics = await queryCuptiMetrics({ chip: 'GH100' });
    expect(metrics.length).toBeGreaterThan(100);
    expect(metrics.find((metric) => metric.name === 'gpu__time_duration')).toMatchObject({ type: 'counter', unit: 'nanosecond' });
    const [duration] = await queryCuptiMetrics({ chip: 'GH100', metrics: ['gpu__time_duration'] });
    expect(duration!.subMetrics).toContain('.sum');
  });

  it('names an unknown metric and an unknown chip', async () => {
    const metric = await planCuptiMetrics({ chip: 'GH100', metrics: ['gpu__time_duration.sum', 'no__such_metric.sum'] }).catch((error: unknown) => error);
    expect(metric).toBeInstanceOf(DriverError);
    expect(metric).toMatchObject({ code: 'CUPTI_ERROR_INVALID_METRIC_NAME' });
    expect((metric as Error).message).toContain('"no__such_metric.sum" is not known for GH100');
    await expect(planCuptiMetrics({ chip: 'NOPE1', metrics: ['gpu__time_duration.sum'] })).rejects.toMatchObject({ code: 'CUPTI_ERROR_INVALID_CHIP_NAME' });
  });
});
