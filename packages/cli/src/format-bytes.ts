const binaryUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Formats a byte count with a binary unit, e.g. `64.0 MiB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < binaryUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${binaryUnits[unit]}`;
}
