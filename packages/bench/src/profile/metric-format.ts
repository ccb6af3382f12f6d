/**
 * Metric values as Nsight Compute's pages print them (the units and scaling of ncu-units.ts), for
 * the report page and the profile comparison; and FLOP/s with a decimal prefix for the roofline.
 */
import { formatNcuNumber, ncuBaseUnit, scaleToNcuUnit } from './ncu-units.js';

/** The metric of a kernel's duration, whose unit is nanoseconds. */
export const durationMetric = 'gpu__time_duration.sum';

const bytePrefixes = ['', 'K', 'M', 'G', 'T', 'P'];

/** Four significant digits at most, never in exponent form below 1e15: `3.232`, `148.1`, `12350`. */
function significant(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.abs(value))));
  return value.toFixed(Math.min(digits, 6)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** A value in ncu's base unit as its pages print it: scaled, two decimals where scaled or fractional, no thousands separators. */
function ncuPageValue(value: number, baseUnit: string): string {
  const scaled = scaleToNcuUnit(value, baseUnit);
  const number = formatNcuNumber(scaled.value, scaled.scaled, { thousands: false });
  return scaled.unit === '' ? number : `${number} ${scaled.unit}`;
}

/** A duration in nanoseconds in the unit that keeps it at or above 1, as ncu prints it: `3.23 us`, `1.16 ms`. */
export function formatDuration(nanoseconds: number): string {
  return ncuPageValue(nanoseconds, 'ns');
}

/** A value with a decimal prefix on `unit`, as ncu's `Kbyte`, `Mbyte`, `Gbyte`: `1.234 TFLOP/s`. */
export function formatWithPrefix(value: number, unit: string): string {
  let prefix = 0;
  while (prefix < bytePrefixes.length - 1 && Math.abs(value) >= 1000 ** (prefix + 1)) prefix += 1;
  return `${significant(value / 1000 ** prefix)} ${bytePrefixes[prefix]}${unit}`;
}

/**
 * One metric value with its CUPTI unit, as ncu's pages print it (ncu-units.ts): the unit shortened
 * (`nanosecond` -> `ns`, `gpc_cycle/second` -> `hz`, `percent` -> `%`), times, frequencies and bytes
 * scaled (`12.35 us`, `1.96 Ghz`, `2.90 Tbyte/s`); `-` for a missing value.
 */
export function formatMetricValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  return ncuPageValue(value, ncuBaseUnit(unit));
}
