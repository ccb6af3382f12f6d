/**
 * Metric values as Nsight Compute prints them: durations in the unit that fits (`nsecond`,
 * `usecond`, `msecond`, `second`), bytes and byte rates with decimal prefixes (`Kbyte`, `Gbyte/second`),
 * other rates per the time unit that fits (`cycle/nsecond`), percentages with two decimals.
 */

/** The metric of a kernel's duration, whose unit is nanoseconds. */
export const durationMetric = 'gpu__time_duration.sum';

const timeUnits = [
  { unit: 'nsecond', nanoseconds: 1 },
  { unit: 'usecond', nanoseconds: 1e3 },
  { unit: 'msecond', nanoseconds: 1e6 },
  { unit: 'second', nanoseconds: 1e9 },
] as const;

const bytePrefixes = ['', 'K', 'M', 'G', 'T', 'P'];

/** Four significant digits at most, never in exponent form below 1e15: `3.232`, `148.1`, `12350`. */
function significant(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.abs(value))));
  return value.toFixed(Math.min(digits, 6)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** A duration in nanoseconds in the unit that keeps it at or above 1: `3.232 usecond`, `1.156 msecond`. */
export function formatDuration(nanoseconds: number): string {
  let chosen: (typeof timeUnits)[number] = timeUnits[0];
  for (const candidate of timeUnits) if (Math.abs(nanoseconds) >= candidate.nanoseconds) chosen = candidate;
  return `${significant(nanoseconds / chosen.nanoseconds)} ${chosen.unit}`;
}

/** A value with a decimal prefix on `unit`, as ncu's `Kbyte`, `Mbyte`, `Gbyte`: `1.234 TFLOP/s`. */
export function formatWithPrefix(value: number, unit: string): string {
  let prefix = 0;
  while (prefix < bytePrefixes.length - 1 && Math.abs(value) >= 1000 ** (prefix + 1)) prefix += 1;
  return `${significant(value / 1000 ** prefix)} ${bytePrefixes[prefix]}${unit}`;
}

/** A rate per second as per the time unit that brings it below 1000: `1.961 cycle/nsecond`. */
function perTime(value: number, counted: string): string {
  let chosen: (typeof timeUnits)[number] = timeUnits[3];
  for (const candidate of [...timeUnits].reverse()) if (Math.abs(value) * (candidate.nanoseconds / 1e9) >= 1) chosen = candidate;
  return `${significant(value * (chosen.nanoseconds / 1e9))} ${counted}/${chosen.unit}`;
}

/**
 * One metric value with its CUPTI unit, as ncu prints it: `nanosecond` as a duration
 * ({@link formatDuration}), `percent` as `45.21 %`, `byte` and `byte/second` with decimal
 * prefixes, other `x/second` rates per the time unit that fits, anything else as the number and its
 * unit; `-` for a missing value.
 */
export function formatMetricValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  if (unit === 'nanosecond') return formatDuration(value);
  if (unit === 'percent') return `${value.toFixed(2)} %`;
  if (unit === 'byte' || unit === 'byte/second') return formatWithPrefix(value, unit);
  const rate = /^(.+)\/second$/.exec(unit);
  if (rate) return perTime(value, rate[1]!);
  const number = Number.isInteger(value) && Math.abs(value) < 1e15 ? value.toLocaleString('en-US') : significant(value);
  return unit === '' ? number : `${number} ${unit}`;
}
