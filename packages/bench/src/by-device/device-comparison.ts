import type { BenchReport } from '../report/bench-report.js';
import { kreplaySchemaId } from '../report/json-schema-parts.js';
import { median } from '../statistics.js';

/** The version of the by-device comparison this package writes. */
export const deviceComparisonVersion = 1;
/** The `schema` of a by-device comparison (`kreplay compare --by-device`, `kreplay bench --slurm`). */
export const deviceComparisonSchemaId = kreplaySchemaId('device-comparison', deviceComparisonVersion);

/** One kind of machine: a device model behind one host link, on one driver. */
export interface ComparedDevice {
  readonly label: string;
  readonly driver: string;
  readonly deviceName: string;
  readonly hostLink: string;
  /** The reports measured on it (paths), and the hosts they came from. */
  readonly sources: readonly string[];
  readonly hosts: readonly string[];
}

/** One device's figures for a fitted configuration (medians over its reports). */
export interface DeviceCell {
  readonly device: string;
  readonly perPassMs: number;
  readonly fixedMs: number;
  readonly perPassStandardErrorMs: number | null;
  /** perPassMs over the first device's, so a column shows how the cost scales across devices. */
  readonly perPassVsFirstDevice: number | null;
}

/** A configuration (variant at a footprint) across devices. */
export interface DeviceComparisonRow {
  /** The pass-cost fit's key: `variant/footprint/d.../w.../s...`. */
  readonly key: string;
  readonly variant: string;
  readonly footprintBytes: number;
  readonly cells: readonly (DeviceCell | null)[];
}

/** Reports from several machines merged into one table grouped by device and host link. */
export interface DeviceComparison {
  readonly schema: typeof deviceComparisonSchemaId;
  readonly schemaVersion: typeof deviceComparisonVersion;
  /** False when some reports never arrived (see `missing`) or a report was interrupted. */
  readonly complete: boolean;
  readonly devices: readonly ComparedDevice[];
  readonly rows: readonly DeviceComparisonRow[];
  readonly missing: readonly string[];
}

/** A report with where it came from. */
export interface SourcedReport {
  readonly source: string;
  readonly report: BenchReport;
}

function deviceOf(report: BenchReport): Omit<ComparedDevice, 'sources' | 'hosts'> {
  const device = report.devices[0];
  const deviceName = device?.name ?? 'unknown device';
  const hostLink = device?.hostLink?.name ?? 'unknown link';
  return { label: `${deviceName} | ${hostLink} | ${report.driver}`, driver: report.driver, deviceName, hostLink };
}

/**
 * Merges reports by device and host link: for each fitted configuration (variant at a footprint),
 * the per-pass and fixed cost on each device (the median over that device's reports) and the
 * per-pass cost relative to the first device. `missing` lists reports that never arrived.
 */
export function compareByDevice(reports: readonly SourcedReport[], missing: readonly string[] = []): DeviceComparison {
  const devices = new Map<string, { device: Omit<ComparedDevice, 'sources' | 'hosts'>; reports: SourcedReport[] }>();
  for (const sourced of reports) {
    const device = deviceOf(sourced.report);
    const group = devices.get(device.label) ?? { device, reports: [] };
    group.reports.push(sourced);
    devices.set(device.label, group);
  }
  const groups = [...devices.values()];
  const keys = new Map<string, { variant: string; footprintBytes: number }>();
  for (const { report } of reports) for (const fit of report.fits) keys.set(fit.key, { variant: fit.variant, footprintBytes: fit.footprintBytes });
  const rows = [...keys.entries()].map(([key, { variant, footprintBytes }]) => {
    const cells = groups.map(({ device, reports: sameDevice }) => {
      const fits = sameDevice.flatMap(({ report }) => report.fits.filter((fit) => fit.key === key));
      if (fits.length === 0) return null;
      const errors = fits.map((fit) => fit.perPassStandardErrorMs).filter((error): error is number => error !== null);
      return {
        device: device.label,
        perPassMs: median(fits.map((fit) => fit.perPassMs)),
        fixedMs: median(fits.map((fit) => fit.fixedMs)),
        perPassStandardErrorMs: errors.length > 0 ? median(errors) : null,
        perPassVsFirstDevice: null,
      };
    });
    const first = cells.find((cell) => cell !== null);
    const scaled = cells.map((cell) =>
      cell && first && first.perPassMs > 0 ? { ...cell, perPassVsFirstDevice: cell.perPassMs / first.perPassMs } : cell,
    );
    return { key, variant, footprintBytes, cells: scaled };
  });
  return {
    schema: deviceComparisonSchemaId,
    schemaVersion: deviceComparisonVersion,
    complete: missing.length === 0 && reports.every(({ report }) => report.complete),
    devices: groups.map(({ device, reports: sameDevice }) => ({
      ...device,
      sources: sameDevice.map(({ source }) => source),
      hosts: [...new Set(sameDevice.map(({ report }) => report.machine.hostname))],
    })),
    rows: rows.sort((left, right) => left.variant.localeCompare(right.variant) || left.footprintBytes - right.footprintBytes),
    missing,
  };
}
