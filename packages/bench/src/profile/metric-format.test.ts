import { describe, expect, it } from 'vitest';
import { formatDuration, formatMetricValue } from './metric-format.js';

// The report page and the profile comparison print values as `kreplay profile`'s table and ncu's
// pages do (ncu-units.ts): short units, times, frequencies and bytes scaled in steps of 1000.
describe('metric values as ncu prints them', () => {
  it('puts durations in the unit that fits', () => {
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(3232)).toBe('3.23 us');
    expect(formatDuration(121_300)).toBe('121.30 us');
    expect(formatDuration(1_155_680)).toBe('1.16 ms');
    expect(formatDuration(2_500_000_000)).toBe('2.50 s');
    expect(formatMetricValue(12_345, 'nanosecond')).toBe('12.35 us');
  });

  it("prints percentages, bytes and rates with ncu's units", () => {
    expect(formatMetricValue(45.2137, 'percent')).toBe('45.21 %');
    expect(formatMetricValue(2_900_000_000_000, 'byte/second')).toBe('2.90 Tbyte/s');
    expect(formatMetricValue(384_666_573, 'byte')).toBe('384.67 Mbyte');
    expect(formatMetricValue(1_961_354_672.33, 'gpc_cycle/second')).toBe('1.96 Ghz');
    expect(formatMetricValue(250, 'inst/second')).toBe('250 inst/s');
    expect(formatMetricValue(1_234_567, 'instruction')).toBe('1234567 inst');
    expect(formatMetricValue(0.5, 'instruction/gpc_cycle')).toBe('0.50 inst/cycle');
    expect(formatMetricValue(7, '')).toBe('7');
  });

  it('prints a dash for a value that is missing or not a number', () => {
    expect(formatMetricValue(null, 'percent')).toBe('-');
    expect(formatMetricValue(undefined, 'nanosecond')).toBe('-');
    expect(formatMetricValue(Number.NaN, 'byte')).toBe('-');
  });
});
