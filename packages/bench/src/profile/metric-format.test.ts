import { describe, expect, it } from 'vitest';
import { formatDuration, formatMetricValue } from './metric-format.js';

describe('metric values as ncu prints them', () => {
  it('puts durations in the unit that fits', () => {
    expect(formatDuration(850)).toBe('850 nsecond');
    expect(formatDuration(3232)).toBe('3.232 usecond');
    expect(formatDuration(121_300)).toBe('121.3 usecond');
    expect(formatDuration(1_155_680)).toBe('1.156 msecond');
    expect(formatDuration(2_500_000_000)).toBe('2.5 second');
    expect(formatMetricValue(12_345, 'nanosecond')).toBe('12.35 usecond');
  });

  it('prints percentages, bytes and rates with ncu\'s units', () => {
    expect(formatMetricValue(45.2137, 'percent')).toBe('45.21 %');
    expect(formatMetricValue(2_900_000_000_000, 'byte/second')).toBe('2.9 Tbyte/second');
    expect(formatMetricValue(384_666_573, 'byte')).toBe('384.7 Mbyte');
    expect(formatMetricValue(1_961_354_672.33, 'gpc_cycle/second')).toBe('1.961 gpc_cycle/nsecond');
    expect(formatMetricValue(250, 'inst/second')).toBe('250 inst/second');
    expect(formatMetricValue(1_234_567, 'inst')).toBe('1,234,567 inst');
    expect(formatMetricValue(0.000123, 'inst/cycle')).toBe('0.000123 inst/cycle');
  });

  it('prints a dash for a value that is missing or not a number', () => {
    expect(formatMetricValue(null, 'percent')).toBe('-');
    expect(formatMetricValue(undefined, 'nanosecond')).toBe('-');
    expect(formatMetricValue(Number.NaN, 'byte')).toBe('-');
  });
});
