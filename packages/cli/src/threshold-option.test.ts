import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseThresholdArgument, thresholdsOf } from './threshold-option.js';
import { UsageError } from './usage-error.js';

describe('--threshold', () => {
  it('reads a percentage or a fraction, for every metric or for one', () => {
    expect(parseThresholdArgument('5%')).toEqual({ metric: null, fraction: 0.05 });
    expect(parseThresholdArgument('0.1')).toEqual({ metric: null, fraction: 0.1 });
    expect(parseThresholdArgument('gpu__time_duration.sum=3%')).toEqual({ metric: 'gpu__time_duration.sum', fraction: 0.03 });
    expect(parseThresholdArgument('dram__bytes.sum=0.02')).toEqual({ metric: 'dram__bytes.sum', fraction: 0.02 });
    for (const bad of ['x', '-5%', '5%%', '=3%', 'gpu__time_duration.sum=', 'gpu__time_duration.sum=fast', '']) {
      expect(() => parseThresholdArgument(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('defaults to 10% for every metric; a metric of its own overrides it; only per-metric ones gate those metrics alone', () => {
    expect(thresholdsOf('compare', undefined)).toEqual({ all: 0.1, byMetric: {} });
    expect(thresholdsOf('compare', [{ metric: null, fraction: 0.05 }])).toEqual({ all: 0.05, byMetric: {} });
    expect(thresholdsOf('compare', [{ metric: 'a', fraction: 0.03 }])).toEqual({ all: null, byMetric: { a: 0.03 } });
    expect(thresholdsOf('compare', [{ metric: null, fraction: 0.05 }, { metric: 'a', fraction: 0.03 }, { metric: 'constructor', fraction: 0.2 }])).toEqual({ all: 0.05, byMetric: { a: 0.03, constructor: 0.2 } });
  });

  it('refuses a threshold given twice', () => {
    expect(() => thresholdsOf('compare', [{ metric: 'a', fraction: 0.03 }, { metric: 'a', fraction: 0.05 }])).toThrow(UsageError);
    expect(() => thresholdsOf('compare', [{ metric: 'a', fraction: 0.03 }, { metric: 'a', fraction: 0.05 }])).toThrow('[cli] [compare] --threshold for a is given twice (3% and 5%). Give it once.');
  });
});
