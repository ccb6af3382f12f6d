import { durationMetric } from './metric-format.js';
import type { MetricValues } from './profile-document.js';

/** The floating-point precisions of ncu's SpeedOfLight_RooflineChart section. */
export type Precision = 'single' | 'double';

/** Every {@link Precision}, in the order the page draws them. */
export const precisions: readonly Precision[] = ['single', 'double'];

const letter: Readonly<Record<Precision, string>> = { single: 'f', double: 'd' };
const operations = ['add', 'mul', 'fma'] as const;

/** `smsp__sass_thread_inst_executed_op_ffma_pred_on.sum` and its kin: thread instructions of one operation. */
const instructions = (unit: 'sm' | 'smsp', precision: Precision, operation: (typeof operations)[number]) =>
  `${unit}__sass_thread_inst_executed_op_${letter[precision]}${operation}_pred_on.sum`;

/** The SM clock the achieved work is scaled by in ncu's section. */
const smspClock = 'smsp__cycles_elapsed.avg.per_second';
/** The achieved DRAM traffic of ncu's section. */
export const dramBytesPerSecondMetric = 'dram__bytes.sum.per_second';

/**
 * The metrics ncu's SpeedOfLight_RooflineChart section collects for the achieved value of a
 * precision (FADD + FMUL + 2 FFMA thread instructions per cycle, times the SM clock; DRAM bytes per
 * second), then those of the roof (peak FFMA per cycle, SM clock; peak DRAM bytes per cycle, DRAM clock).
 */
export function rooflineMetrics(precision: Precision): { readonly achieved: readonly string[]; readonly peak: readonly string[] } {
  return {
    achieved: [...operations.map((operation) => `${instructions('smsp', precision, operation)}.per_cycle_elapsed`), smspClock, dramBytesPerSecondMetric],
    peak: [`${instructions('sm', precision, 'fma')}.peak_sustained`, 'sm__cycles_elapsed.avg.per_second', 'dram__bytes.sum.peak_sustained', 'dram__cycles_elapsed.avg.per_second'],
  };
}

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** The sum of the values, or null when one is missing. */
function sumOf(values: MetricValues, names: readonly string[], weights: readonly number[]): number | null {
  let sum = 0;
  for (const [index, name] of names.entries()) {
    const value = values[name];
    if (!finite(value)) return null;
    sum += value * weights[index]!;
  }
  return sum;
}

const fmaCountsTwice = [1, 1, 2];

/**
 * Achieved floating-point operations per second of one launch in `precision`: as ncu's section
 * computes it (FADD + FMUL + 2 FFMA thread instructions per elapsed cycle, times
 * `smsp__cycles_elapsed.avg.per_second`), else from the instruction counts (`smsp__` or `sm__`
 * `..._pred_on.sum`) over `gpu__time_duration.sum`; null when the profile has neither.
 */
export function achievedFlopsPerSecond(values: MetricValues, precision: Precision): number | null {
  const perCycle = sumOf(values, operations.map((operation) => `${instructions('smsp', precision, operation)}.per_cycle_elapsed`), fmaCountsTwice);
  const clock = values[smspClock];
  if (perCycle !== null && finite(clock)) return perCycle * clock;
  const duration = values[durationMetric];
  if (!finite(duration) || duration <= 0) return null;
  for (const unit of ['smsp', 'sm'] as const) {
    const operationCount = sumOf(values, operations.map((operation) => instructions(unit, precision, operation)), fmaCountsTwice);
    if (operationCount !== null) return operationCount / (duration * 1e-9);
  }
  return null;
}

/** Achieved DRAM bytes per second of one launch: `dram__bytes.sum.per_second`, else `dram__bytes.sum` over its duration; null without either. */
export function achievedDramBytesPerSecond(values: MetricValues): number | null {
  const rate = values[dramBytesPerSecondMetric];
  if (finite(rate)) return rate;
  const bytes = values['dram__bytes.sum'];
  const duration = values[durationMetric];
  return finite(bytes) && finite(duration) && duration > 0 ? bytes / (duration * 1e-9) : null;
}

/** The roof of `precision` from one launch's values: peak FLOP/s (2 x peak FFMA per cycle x SM clock) and peak DRAM bytes per second; null without its metrics. */
export function rooflinePeak(values: MetricValues, precision: Precision): { readonly flopsPerSecond: number; readonly dramBytesPerSecond: number } | null {
  const [fmaPeak, smClock, dramPeak, dramClock] = rooflineMetrics(precision).peak.map((name) => values[name]);
  if (!finite(fmaPeak) || !finite(smClock) || !finite(dramPeak) || !finite(dramClock)) return null;
  return { flopsPerSecond: 2 * fmaPeak * smClock, dramBytesPerSecond: dramPeak * dramClock };
}
