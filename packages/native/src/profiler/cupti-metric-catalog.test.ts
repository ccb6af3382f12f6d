import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// CUPTI's metric enumeration through the fake libcupti.so of the capture tests (its chip FK100 knows
// six metrics). libcupti.so is loaded once per process, from KREPLAY_CUPTI_LIBRARY_DIR when it is
// set: this file sets it before anything loads CUPTI, and vitest runs each file in its own process.
const fakeCupti = fileURLToPath(new URL('../../build/tests/fake-cupti', import.meta.url));
const built = existsSync(`${fakeCupti}/libcupti.so`);
if (built) process.env['KREPLAY_CUPTI_LIBRARY_DIR'] = fakeCupti;
const { queryCuptiMetrics } = await import('./cupti-metric-catalog.js');

describe.skipIf(!built)('queryCuptiMetrics (fake libcupti)', () => {
  it("lists a chip's counters, ratios and throughputs with their units and descriptions", async () => {
    const metrics = await queryCuptiMetrics({ chip: 'FK100' });
    expect(metrics.map((metric) => [metric.name, metric.type])).toEqual([
      ['gpu__time_duration', 'counter'],
      ['gpc__cycles_elapsed', 'counter'],
      ['dram__bytes', 'counter'],
      ['l1tex__t_sector_hit_rate', 'ratio'],
      ['lts__t_sector_hit_rate', 'ratio'],
      ['sm__throughput', 'throughput'],
    ]);
    expect(metrics[0]).toEqual({ name: 'gpu__time_duration', type: 'counter', unit: 'nanosecond', hardwareUnit: 'gpu', description: 'total duration in nanoseconds', subMetrics: [] });
  });

  it('gives the named metrics with their sub-metrics, a name with a suffix too', async () => {
    const [duration, throughput] = await queryCuptiMetrics({ chip: 'FK100', metrics: ['gpu__time_duration', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'] });
    expect(duration!.subMetrics).toContain('.sum');
    expect(throughput).toMatchObject({ name: 'sm__throughput.avg.pct_of_peak_sustained_elapsed', type: 'throughput', unit: 'percent' });
    expect(throughput!.subMetrics).toContain('.avg.pct_of_peak_sustained_elapsed');
  });

  it('names an unknown chip and an unknown metric', async () => {
    await expect(queryCuptiMetrics({ chip: 'GH100' })).rejects.toMatchObject({ code: 'CUPTI_ERROR_INVALID_CHIP_NAME' });
    const unknown = await queryCuptiMetrics({ chip: 'FK100', metrics: ['no__such_metric'] }).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'CUPTI_ERROR_INVALID_METRIC_NAME' });
    expect((unknown as Error).message).toContain('"no__such_metric" is not known for FK100');
  });

  it('refuses malformed options before loading anything', async () => {
    await expect(queryCuptiMetrics({ chip: '' })).rejects.toThrow(/chip must be a chip name/);
    await expect(queryCuptiMetrics({ chip: 'FK100', metrics: ['a b'] })).rejects.toThrow(/metrics must be metric names/);
  });
});
