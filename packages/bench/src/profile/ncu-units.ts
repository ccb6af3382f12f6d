/**
 * Metric units and values as Nsight Compute prints them. CUPTI names a unit by its dimension and
 * its unit's domain (`gpc_cycle/second`, `l2_sector`, `nanosecond`); ncu prints the dimension
 * alone, short (`hz`, `sector`, `ns`), and on its pages scales times, frequencies and byte counts
 * to the largest prefix that keeps the value at 1 or more (`us`, `Ghz`, `Kbyte`, `Tbyte/s`, in
 * steps of 1000), leaving counts of cycles, instructions, sectors and warps unscaled.
 */

/** CUPTI's words that ncu shortens. */
const shortWords: Readonly<Record<string, string>> = {
  nanosecond: 'ns',
  second: 's',
  percent: '%',
  instruction: 'inst',
};

/** One part of a unit (`gpc_cycle` -> `cycle`, `instruction` -> `inst`). */
function shortUnitWord(word: string): string {
  const dimension = word.includes('_') ? word.slice(word.lastIndexOf('_') + 1) : word;
  return shortWords[dimension] ?? dimension;
}

/**
 * ncu's base unit for a unit as CUPTI names it: `gpc_cycle/second` -> `hz`, `l2_sector` ->
 * `sector`, `nanosecond` -> `ns`, `percent` -> `%`, `instruction/gpc_cycle` -> `inst/cycle`,
 * `byte/second` -> `byte/s`; a unit ncu already prints the same way is returned as it is.
 */
export function ncuBaseUnit(cuptiUnit: string): string {
  const parts = cuptiUnit.split('/').map(shortUnitWord);
  const unit = parts.join('/');
  return unit === 'cycle/s' ? 'hz' : unit;
}

/** A value in a unit, as printed. */
export interface ScaledValue {
  readonly value: number;
  readonly unit: string;
  /** Whether the value was divided (then ncu prints two decimals even when it is whole). */
  readonly scaled: boolean;
}

/** The units ncu scales: each step is 1000 times the one before it. */
const scales: readonly (readonly string[])[] = [
  ['ns', 'us', 'ms', 's'],
  ['hz', 'Khz', 'Mhz', 'Ghz', 'Thz'],
  ['byte', 'Kbyte', 'Mbyte', 'Gbyte', 'Tbyte', 'Pbyte'],
];

/**
 * `value` in `baseUnit` (ncu's, from {@link ncuBaseUnit}) scaled as ncu's pages print it: to the
 * largest step of its scale that keeps it at 1 or more. A byte unit keeps what follows it
 * (`byte/s` -> `Tbyte/s`, `byte/block` -> `Kbyte/block`); other units are returned as they are.
 */
export function scaleToNcuUnit(value: number, baseUnit: string): ScaledValue {
  const slash = baseUnit.indexOf('/');
  const head = slash === -1 ? baseUnit : baseUnit.slice(0, slash);
  const tail = slash === -1 ? '' : baseUnit.slice(slash);
  const scale = scales.find((steps) => steps[0] === head && (tail === '' || head === 'byte'));
  if (scale === undefined || !Number.isFinite(value)) return { value, unit: baseUnit, scaled: false };
  let step = 0;
  while (step + 1 < scale.length && Math.abs(value) >= 1000 ** (step + 1)) step += 1;
  return { value: value / 1000 ** step, unit: `${scale[step]}${tail}`, scaled: step > 0 };
}

/** How a value is written: ncu's pages write no thousands separators, its CSV writes them. */
export interface NcuNumberStyle {
  readonly thousands: boolean;
}

/**
 * A value as ncu writes it: a whole number without decimals (`35069`, `0`, `100`), any other
 * number, or one that was scaled, with two (`28175.42`, `0.10`, `1.02`); with `thousands`,
 * separated in thousands (`2,816`, `3,183,712,121.21`). NaN prints as `n/a`.
 */
export function formatNcuNumber(value: number, scaled: boolean, style: NcuNumberStyle): string {
  if (Number.isNaN(value)) return 'n/a';
  const whole = Number.isInteger(value) && !scaled;
  return value.toLocaleString('en-US', {
    useGrouping: style.thousands,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  });
}
