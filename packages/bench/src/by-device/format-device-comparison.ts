import { formatMilliseconds, formatRatio } from '../format-units.js';
import { textTable } from '../report/text-table.js';
import type { DeviceComparison } from './device-comparison.js';

/**
 * The comparison as a terminal table: one row per configuration, per device its per-pass cost,
 * fixed cost and scaling against the first device; then the devices and any missing reports.
 */
export function formatDeviceComparison(comparison: DeviceComparison): string {
  const headers = ['configuration', ...comparison.devices.map((_, index) => `device ${index + 1}: per pass / fixed ms (x first)`)];
  const rows = comparison.rows.map((row) => [
    row.key,
    ...row.cells.map((cell) =>
      cell === null ? '-' : `${formatMilliseconds(cell.perPassMs)} / ${formatMilliseconds(cell.fixedMs)} (${formatRatio(cell.perPassVsFirstDevice)})`,
    ),
  ]);
  const legend = comparison.devices.map(
    (device, index) => `device ${index + 1}: ${device.label} — ${device.sources.length} report(s) from ${device.hosts.join(', ')}`,
  );
  const missing = comparison.missing.map((reason) => `missing: ${reason}`);
  const status = comparison.complete ? [] : ['INCOMPLETE: some reports are missing or were interrupted; the table holds what arrived.'];
  return `${[...legend, '', textTable(headers, rows), ...(missing.length > 0 ? ['', ...missing] : []), ...status].join('\n')}\n`;
}
