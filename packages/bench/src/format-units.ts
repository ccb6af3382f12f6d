const binaryUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** A byte count with a binary unit and one decimal, e.g. `64.0 MiB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < binaryUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${binaryUnits[unit]}`;
}

/** An exact, compact byte count for keys: `64MiB` when whole in a binary unit, else bytes. */
export function exactBytes(bytes: number): string {
  for (let unit = binaryUnits.length - 1; unit > 0; unit -= 1) {
    const size = 1024 ** unit;
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${binaryUnits[unit]}`;
  }
  return `${bytes}B`;
}

/**
 * A rate in GiB/s (binary, as byte sizes are) with three significant digits, whole above 100:
 * `51.5 GiB/s`, `3632 GiB/s`, `0.0123 GiB/s`; `-` when unknown.
 */
export function formatRate(bytesPerSecond: number | null): string {
  if (bytesPerSecond === null || !Number.isFinite(bytesPerSecond)) return '-';
  const gibibytes = bytesPerSecond / 2 ** 30;
  return `${Math.abs(gibibytes) >= 100 ? gibibytes.toFixed(0) : gibibytes.toPrecision(3)} GiB/s`;
}

/** Milliseconds with three significant digits, or `-` when unknown. */
export function formatMilliseconds(milliseconds: number | null): string {
  if (milliseconds === null || !Number.isFinite(milliseconds)) return '-';
  return Math.abs(milliseconds) >= 100 ? milliseconds.toFixed(0) : milliseconds.toPrecision(3);
}

/** A ratio such as `0.052` or `12.3`, or `-` when unknown. */
export function formatRatio(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '-';
  return ratio >= 10 ? ratio.toFixed(1) : ratio.toPrecision(2);
}
