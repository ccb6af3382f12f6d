import { describe, expect, it } from 'vitest';
import { chartAxes } from './chart-axes.js';

interface Axis {
  (values: readonly number[]): { min: number; max: number; type: string; afterBuildTicks: (scale: { ticks: { value: number }[] }) => void; ticks: { callback: (value: number) => string } };
  format: (value: number) => string;
}
interface Axes {
  formatNumber: (value: number) => string;
  formatBytes: (bytes: number) => string;
  formatMs: (ms: number) => string;
  formatRate: (bytesPerSecond: number) => string;
  logAxis: (title: string, kind: string) => Axis;
  countAxis: (title: string, values: readonly number[]) => Axis;
}

// The page's own code, run here as the browser runs it.
const axes = new Function(`${chartAxes}\nreturn { formatNumber, formatBytes, formatMs, formatRate, logAxis, countAxis };`)() as Axes;

function ticksOf(axis: Axis, values: readonly number[]): { values: number[]; labels: string[]; min: number; max: number } {
  const options = axis(values);
  const scale = { ticks: [] as { value: number }[] };
  options.afterBuildTicks(scale);
  return { values: scale.ticks.map((tick) => tick.value), labels: scale.ticks.map((tick) => options.ticks.callback(tick.value)), min: options.min, max: options.max };
}

describe('chart axes of the HTML report', () => {
  it('print values with at most three significant digits, bytes and rates in binary units', () => {
    expect([5000, 0.7, 12_345_678, 0.000_123_4, 42].map(axes.formatNumber)).toEqual(['5k', '0.7', '12.3M', '0.000123', '42']);
    expect([16 * 2 ** 20, 1.5 * 2 ** 30, 512, 3 * 2 ** 40].map(axes.formatBytes)).toEqual(['16 MiB', '1.5 GiB', '512 B', '3 TiB']);
    expect([2500, 0.7, 0.0042, 12.345].map(axes.formatMs)).toEqual(['2.5 s', '700 µs', '4.2 µs', '12.3 ms']);
    expect(axes.formatRate(55.3e9)).toBe('51.5 GiB/s');
  });

  it('puts byte ticks at powers of two, at most eight, over footprints from 16 MiB to 64 GiB', () => {
    const footprints = [16, 1024, 8192, 32768, 65536].map((mebibytes) => mebibytes * 2 ** 20);
    const { values, labels } = ticksOf(axes.logAxis('footprint', 'bytes'), footprints);
    expect(values.length).toBeLessThanOrEqual(8);
    expect(values.every((value) => Number.isInteger(Math.log2(value)))).toBe(true);
    expect(labels).toContain('16 MiB');
    expect(labels).toContain('64 GiB');
    expect(labels.every((label) => /^\d+(\.\d+)? (MiB|GiB)$/.test(label))).toBe(true);
  });

  it('puts time ticks at round values in readable units, not 5,000.0 or 0.7000', () => {
    const { labels } = ticksOf(axes.logAxis('time', 'ms'), [0.7, 5000]);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(labels.length).toBeLessThanOrEqual(8);
    expect(labels).toEqual(expect.arrayContaining(['1 ms', '10 ms', '1 s']));
    expect(labels.join(' ')).not.toMatch(/,|\.0\b|0000/);
  });

  it('pads the range beyond the values shown, so points and whiskers stay inside', () => {
    const { min, max } = ticksOf(axes.logAxis('time', 'ms'), [2, 3.5, 0.9]);
    expect(min).toBeLessThan(0.9);
    expect(max).toBeGreaterThan(3.5);
    const passes = ticksOf(axes.countAxis('passes', [2, 3, 5, 8]), []);
    expect(passes.values).toEqual([2, 3, 5, 8]);
    expect(passes.min).toBeLessThan(2);
    expect(passes.max).toBeGreaterThan(8);
  });
});
