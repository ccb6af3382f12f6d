import { loadBinding } from '../addon/load-binding.js';
import { profilerFailure } from './profiler-failure.js';
import { argumentError, requireArray, requireKnownKeys, requireObject } from '../errors/validate.js';

const component = 'profiler';

/** One metric as CUPTI's host API describes it (what `ncu --query-metrics` lists). */
export interface CuptiMetric {
  /** Its base name (`gpu__time_duration`), or the name it was asked for. */
  readonly name: string;
  readonly type: 'counter' | 'ratio' | 'throughput';
  /** Its unit as CUPTI names it (`nanosecond`, `gpc_cycle/second`); empty for a ratio. */
  readonly unit: string;
  /** The hardware unit that counts it (`gpu`, `sm`, `dram`). */
  readonly hardwareUnit: string;
  readonly description: string;
  /** The suffixes it can be named with (`.sum`, `.avg.pct_of_peak_sustained_elapsed`); empty unless asked for. */
  readonly subMetrics: readonly string[];
}

/**
 * The metrics CUPTI's host API knows for `chip` (e.g. `GH100`; `runtime.profiler.chipName()` gives a
 * device's), without a device: every base metric, or with `metrics` the named ones (base names, or
 * names with a suffix) with their sub-metrics.
 * @throws {ArgumentError} (as a rejection) for a chip or metric list that is not one.
 * @throws {UnsupportedError} (as a rejection) when libcupti.so cannot be loaded or lacks the metric enumeration.
 * @throws {DriverError} (as a rejection) for an unknown chip or metric, e.g. code `CUPTI_ERROR_INVALID_METRIC_NAME`.
 */
export async function queryCuptiMetrics(options: { readonly chip: string; readonly metrics?: readonly string[] }): Promise<readonly CuptiMetric[]> {
  const given = requireObject(component, 'options', options);
  requireKnownKeys(component, 'options', given, ['chip', 'metrics']);
  if (typeof given['chip'] !== 'string' || given['chip'] === '') throw argumentError(component, 'chip', 'chip must be a chip name such as GH100', 'Pass the chip CUPTI names');
  let names: string[] | null = null;
  if (given['metrics'] !== undefined) {
    const list = requireArray(component, 'metrics', given['metrics']);
    if (list.some((metric) => typeof metric !== 'string' || !/^[A-Za-z0-9_.:]+$/.test(metric))) {
      throw argumentError(component, 'metrics', 'metrics must be metric names such as gpu__time_duration', 'Pass the names --query-metrics lists');
    }
    names = [...new Set(list as string[])];
  }
  const listed = await loadBinding().queryCuptiMetrics(given['chip'], names);
  if (!Array.isArray(listed)) throw profilerFailure(listed, 'cuda', null, 'listing metrics');
  return Object.freeze(listed.map((metric) => Object.freeze({ ...metric, type: metric.type as CuptiMetric['type'], subMetrics: Object.freeze([...metric.subMetrics]) })));
}
