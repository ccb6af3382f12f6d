import { hostname } from 'node:os';
import { csvRecord } from './csv-text.js';
import { formatNcuNumber, scaleToNcuUnit } from '@kreplay/bench';
import { printedKernelName, type PrintUnits } from './profile-details-page.js';
import { describeDimensions } from './profile-launch.js';
import { computeCapabilityText, profiledValue } from './profile-metric-value.js';
import { allMetrics, commandLineSectionName } from './sections/resolve-sections.js';
import type { ProfileRow } from './profile-dispatches.js';
import type { ProfileReport } from './profile-report.js';

/** The pages of `ncu --csv --page`: one row per launch (`raw`) or one row per metric (`details`, ncu's default). */
export type CsvPage = 'raw' | 'details';

/** Which process ran the kernels, for the CSV's first columns: kreplay's own process by default. */
export interface CsvProcess {
  readonly id: number;
  readonly name: string;
  readonly host: string;
}

/** This kreplay process, which ran the profiled kernels. */
export function thisProcess(): CsvProcess {
  return { id: process.pid, name: 'kreplay', host: hostname() };
}

/** The columns ncu's CSV starts every row with. */
const launchColumns = ['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Context', 'Stream', 'Block Size', 'Grid Size', 'Device', 'CC'] as const;

/** The columns of ncu's details page after the launch's (rules are not evaluated: they stay empty). */
const detailsColumns = ['Section Name', 'Metric Name', 'Metric Unit', 'Metric Value', 'Rule Name', 'Rule Type', 'Rule Description', 'Estimated Speedup Type', 'Estimated Speedup'] as const;

/** A launch's first columns; kreplay's runtime has one context per device and leaves Context and Stream empty. */
function launchCells(report: ProfileReport, row: ProfileRow, index: number, owner: CsvProcess): string[] {
  return [String(index), String(owner.id), owner.name, owner.host, printedKernelName(row), '', '', describeDimensions(row.block), describeDimensions(row.grid), '0', computeCapabilityText(report.architecture)];
}

const number = (value: number, scaled: boolean) => formatNcuNumber(value, scaled, { thousands: true });

/** The raw page: a header of every metric (by name), a row of units, then one row per launch. */
function rawPage(report: ProfileReport, units: PrintUnits, owner: CsvProcess): string {
  const metrics = allMetrics(report.sections, report.commandLineMetrics).sort();
  const values = report.dispatches.map((row) => metrics.map((metric) => profiledValue(report, row, metric)));
  // One unit per column: scaled (with `auto`) to the column's largest value.
  const columnUnits = metrics.map((metric, column) => {
    const found = values.map((row) => row[column]).filter((value) => value !== undefined);
    if (found.length === 0) return { unit: '', divisor: 1 };
    const largest = found.reduce((most, value) => (Math.abs(value.value) > Math.abs(most.value) ? value : most));
    if (units === 'base') return { unit: largest.unit, divisor: 1 };
    const scaled = scaleToNcuUnit(largest.value, largest.unit);
    return { unit: scaled.unit, divisor: scaled.scaled ? largest.value / scaled.value : 1 };
  });
  let text = csvRecord([...launchColumns, ...metrics]) + csvRecord([...launchColumns.map(() => ''), ...columnUnits.map((column) => column.unit)]);
  report.dispatches.forEach((row, index) => {
    const cells = values[index]!.map((value, column) => {
      if (value === undefined) return 'n/a';
      const { divisor } = columnUnits[column]!;
      return number(value.value / divisor, divisor !== 1);
    });
    text += csvRecord([...launchCells(report, row, index, owner), ...cells]);
  });
  return text;
}

/** The details page: one row per metric of each section's table (then the --metrics ones) of each launch. */
function detailsPage(report: ProfileReport, units: PrintUnits, owner: CsvProcess): string {
  const tables = [
    ...report.sections.map((section) => ({ name: section.displayName, rows: section.header })),
    ...(report.commandLineMetrics.length === 0 ? [] : [{ name: commandLineSectionName, rows: [...report.commandLineMetrics].sort().map((metric) => ({ label: metric, metric })) }]),
  ];
  let text = csvRecord([...launchColumns, ...detailsColumns]);
  report.dispatches.forEach((row, index) => {
    const launch = launchCells(report, row, index, owner);
    for (const table of tables) {
      for (const { label, metric } of table.rows) {
        const found = profiledValue(report, row, metric);
        const scaled = found === undefined ? undefined : units === 'auto' ? scaleToNcuUnit(found.value, found.unit) : { ...found, scaled: false };
        const cells = scaled === undefined ? ['', 'n/a'] : [scaled.unit, number(scaled.value, scaled.scaled)];
        text += csvRecord([...launch, table.name, label, ...cells, '', '', '', '', '']);
      }
    }
  });
  return text;
}

/**
 * A profile report as `ncu --csv --page raw|details` writes its results, with the same columns,
 * so that a script written for ncu's CSV reads it: every field quoted, numbers with thousands
 * separators, in base units unless `units` is `auto` (ncu 2025.3 writes base units in CSV).
 */
export function profileCsv(report: ProfileReport, page: CsvPage, units: PrintUnits = 'base', owner: CsvProcess = thisProcess()): string {
  return page === 'raw' ? rawPage(report, units, owner) : detailsPage(report, units, owner);
}
