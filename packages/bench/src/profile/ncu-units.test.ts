import { describe, expect, it } from 'vitest';
import { formatNcuNumber, ncuBaseUnit, scaleToNcuUnit } from './ncu-units.js';

// ncu 2025.3 as its pages and its CSV print units and values (the repository's ncu CSVs and ncu's
// details pages): CUPTI's units shortened, times, frequencies and bytes scaled in steps of 1000.
describe("ncu's units", () => {
  it("shortens CUPTI's units as ncu prints them", () => {
    expect(ncuBaseUnit('nanosecond')).toBe('ns');
    expect(ncuBaseUnit('percent')).toBe('%');
    expect(ncuBaseUnit('gpc_cycle')).toBe('cycle');
    expect(ncuBaseUnit('gpc_cycle/second')).toBe('hz');
    expect(ncuBaseUnit('dram_cycle/second')).toBe('hz');
    expect(ncuBaseUnit('l2_sector')).toBe('sector');
    expect(ncuBaseUnit('instruction')).toBe('inst');
    expect(ncuBaseUnit('instruction/gpc_cycle')).toBe('inst/cycle');
    expect(ncuBaseUnit('byte/second')).toBe('byte/s');
    expect(ncuBaseUnit('byte')).toBe('byte');
    expect(ncuBaseUnit('warp')).toBe('warp');
    expect(ncuBaseUnit('')).toBe('');
  });

  it('scales times, frequencies and bytes to the largest step that keeps the value at 1 or more', () => {
    expect(scaleToNcuUnit(19_580, 'ns')).toEqual({ value: 19.58, unit: 'us', scaled: true });
    expect(scaleToNcuUnit(2_816, 'ns')).toMatchObject({ unit: 'us' });
    expect(scaleToNcuUnit(896, 'ns')).toEqual({ value: 896, unit: 'ns', scaled: false });
    expect(scaleToNcuUnit(1_205_000, 'ns')).toMatchObject({ value: 1.205, unit: 'ms' });
    expect(scaleToNcuUnit(3_190_000_000, 'hz')).toMatchObject({ value: 3.19, unit: 'Ghz' });
    expect(scaleToNcuUnit(800_490_000, 'hz')).toMatchObject({ unit: 'Mhz' });
    expect(scaleToNcuUnit(32_768, 'byte')).toMatchObject({ value: 32.768, unit: 'Kbyte' });
    expect(scaleToNcuUnit(1_024, 'byte/block')).toMatchObject({ value: 1.024, unit: 'Kbyte/block' });
    expect(scaleToNcuUnit(0, 'byte/block')).toEqual({ value: 0, unit: 'byte/block', scaled: false });
    expect(scaleToNcuUnit(3.14e12, 'byte/s')).toMatchObject({ unit: 'Tbyte/s' });
    expect(scaleToNcuUnit(425.29e9, 'byte/s')).toMatchObject({ unit: 'Gbyte/s' });
  });

  it('leaves counts of cycles, instructions, warps and sectors, percentages and ratios unscaled', () => {
    for (const unit of ['cycle', 'inst', 'warp', 'sector', '%', '', 'inst/cycle', 'register/thread', 'thread']) {
      expect(scaleToNcuUnit(1_621_955, unit), unit).toEqual({ value: 1_621_955, unit, scaled: false });
    }
  });

  it('writes whole numbers bare and others, or scaled ones, with two decimals; separators only when asked', () => {
    const page = { thousands: false };
    const csv = { thousands: true };
    expect(formatNcuNumber(35_069, false, page)).toBe('35069');
    expect(formatNcuNumber(28_175.4219, false, page)).toBe('28175.42');
    expect(formatNcuNumber(0, false, page)).toBe('0');
    expect(formatNcuNumber(100, false, page)).toBe('100');
    expect(formatNcuNumber(0.0019, false, page)).toBe('0.00');
    expect(formatNcuNumber(1.024, true, page)).toBe('1.02');
    expect(formatNcuNumber(2, true, page)).toBe('2.00');
    expect(formatNcuNumber(2_816, false, csv)).toBe('2,816');
    expect(formatNcuNumber(3_183_712_121.2121, false, csv)).toBe('3,183,712,121.21');
    expect(formatNcuNumber(Number.NaN, false, csv)).toBe('n/a');
  });
});
