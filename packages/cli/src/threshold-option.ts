import { InvalidArgumentError } from 'commander';
import { defaultProfileThresholds } from '@kreplay/bench';
import type { ProfileThresholds } from '@kreplay/bench';
import { UsageError } from './usage-error.js';

/** One `--threshold`: a fraction for every metric (`metric` null) or for one metric. */
export interface ThresholdArgument {
  readonly metric: string | null;
  readonly fraction: number;
}

const amount = /^\s*(\d*\.?\d+)\s*(%?)\s*$/;

/**
 * Parses one --threshold: `5%` or `0.05` for every metric, `gpu__time_duration.sum=3%` (or `=0.03`)
 * for one metric.
 * @throws InvalidArgumentError for anything else (commander exits with a usage error).
 */
export function parseThresholdArgument(text: string): ThresholdArgument {
  const equals = text.lastIndexOf('=');
  const metric = equals < 0 ? null : text.slice(0, equals).trim();
  const found = amount.exec(equals < 0 ? text : text.slice(equals + 1));
  if (found === null || metric === '') {
    throw new InvalidArgumentError(`"${text}" is not a threshold: pass a percentage or fraction for every metric (5% or 0.05), or METRIC=5% for one metric.`);
  }
  const value = Number(found[1]);
  return { metric, fraction: found[2] === '%' ? value / 100 : value };
}

/** Commander's parser for the repeatable --threshold: the arguments in order. */
export function collectThresholds(text: string, previous: readonly ThresholdArgument[] | undefined): ThresholdArgument[] {
  return [...(previous ?? []), parseThresholdArgument(text)];
}

const percent = (fraction: number) => `${Number((100 * fraction).toFixed(3))}%`;

/**
 * The thresholds the --threshold arguments give: none, 10% for every metric; `5%`, 5% for every
 * metric; only `METRIC=3%` arguments, those metrics gated and no other; both, each named metric at
 * its own threshold and the others at the threshold for every metric.
 * @throws UsageError when the threshold for every metric, or one metric's, is given twice.
 */
export function thresholdsOf(command: string, given: readonly ThresholdArgument[] | undefined): ProfileThresholds {
  if (given === undefined || given.length === 0) return defaultProfileThresholds;
  let all: number | null = null;
  const byMetric: Record<string, number> = {};
  for (const { metric, fraction } of given) {
    const earlier = metric === null ? all : Object.hasOwn(byMetric, metric) ? byMetric[metric] : null;
    if (earlier !== null && earlier !== undefined) {
      const which = metric === null ? 'for every metric' : `for ${metric}`;
      throw new UsageError(command, `--threshold ${which} is given twice (${percent(earlier)} and ${percent(fraction)})`, 'Give it once');
    }
    if (metric === null) all = fraction;
    else byMetric[metric] = fraction;
  }
  return { all, byMetric };
}
