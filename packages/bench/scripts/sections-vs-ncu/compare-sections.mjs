// Compares `kreplay profile --section X --csv --page raw` with `ncu --section X --csv --page raw`
// runs of the same kernel: the metric names each section collects, and each value against the
// spread of ncu's runs. Run by sections-vs-ncu.sh (node compare-sections.mjs OUT), and tested on
// fixture CSVs by compare-sections.test.mjs.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The columns both tools start a raw row with; the metrics follow. */
export const launchColumns = ['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Context', 'Stream', 'Block Size', 'Grid Size', 'Device', 'CC'];

/**
 * The records of a CSV text (RFC 4180: quoted fields, doubled quotes, commas inside quotes), from
 * its lines that start with a quote: ncu's `==PROF==` lines and the program's own output are
 * skipped.
 */
export function parseCsv(text) {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.startsWith('"'))
    .map(parseRecord);
}

/** One CSV record's fields. */
function parseRecord(line) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let at = 0; at < line.length; at += 1) {
    const character = line[at];
    if (quoted && character === '"' && line[at + 1] === '"') {
      field += '"';
      at += 1;
    } else if (character === '"') {
      quoted = !quoted;
    } else if (character === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else {
      field += character;
    }
  }
  fields.push(field);
  return fields;
}

/** A raw page: its metric columns, their units, and each launch's cells by column. */
export function readRawPage(text) {
  const [header, units, ...rows] = parseCsv(text);
  if (header === undefined || units === undefined || header[0] !== 'ID') throw new Error('not a raw page of ncu --csv (no "ID" header and unit row)');
  const unitOf = Object.fromEntries(header.map((column, index) => [column, units[index] ?? '']));
  return {
    metrics: header.filter((column) => !launchColumns.includes(column)),
    unitOf,
    rows: rows.map((cells) => Object.fromEntries(header.map((column, index) => [column, cells[index] ?? '']))),
  };
}

/** The factor of a unit's prefix over its base (`us` 1e3 ns, `Ghz` 1e9 hz, `Kbyte/s` 1e3 byte/s), or 1. */
export function unitFactor(unit) {
  const head = unit.split('/')[0];
  const steps = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, hz: 1, Khz: 1e3, Mhz: 1e6, Ghz: 1e9, Thz: 1e12, byte: 1, Kbyte: 1e3, Mbyte: 1e6, Gbyte: 1e9, Tbyte: 1e12, Pbyte: 1e15 };
  return steps[head] ?? 1;
}

/** A printed value in its column's unit as a number in the base unit, or null when it is not a number (`n/a`, `CachePreferNone`). */
export function baseValue(text, unit) {
  const number = Number(String(text).replace(/,/g, ''));
  return text === '' || !Number.isFinite(number) ? null : number * unitFactor(unit);
}

/**
 * Whether `value` agrees with ncu's `runs` of it: no further from their mean than their range, or
 * than the two decimals they were printed with, or than `tolerance` of the mean (relative).
 */
export function agrees(value, runs, rounding, tolerance) {
  const mean = runs.reduce((sum, run) => sum + run, 0) / runs.length;
  const range = Math.max(...runs) - Math.min(...runs);
  return Math.abs(value - mean) <= Math.max(range, rounding, tolerance * Math.abs(mean)) + 1e-9 * Math.abs(mean);
}

/**
 * One section compared: `ncuRuns` (raw pages of ncu --section), `kreplay` (kreplay's raw page),
 * `always` (columns ncu's raw page holds whatever it collects: device attributes, launch settings,
 * the profiler's own), `leftOut` (metrics kreplay's section says it leaves out), `tolerance`
 * (relative, beyond ncu's spread). Each page's first launch is compared.
 */
export function compareSection({ section, ncuRuns, kreplay, always = [], leftOut = [], tolerance = 0 }) {
  const ncuMetrics = new Set(ncuRuns.flatMap((run) => run.metrics));
  const sectionMetrics = [...ncuMetrics].filter((metric) => !always.includes(metric)).sort();
  const compared = [];
  const extra = [];
  for (const metric of [...kreplay.metrics].sort()) {
    if (!ncuMetrics.has(metric)) {
      extra.push(metric);
      continue;
    }
    const value = baseValue(kreplay.rows[0]?.[metric] ?? '', kreplay.unitOf[metric] ?? '');
    const runs = ncuRuns.map((run) => baseValue(run.rows[0]?.[metric] ?? '', run.unitOf[metric] ?? '')).filter((run) => run !== null);
    if (value === null || runs.length === 0) {
      compared.push({ metric, kreplay: kreplay.rows[0]?.[metric] ?? '', ncu: ncuRuns.map((run) => run.rows[0]?.[metric] ?? ''), within: null });
      continue;
    }
    const rounding = 0.01 * Math.max(unitFactor(kreplay.unitOf[metric] ?? ''), ...ncuRuns.map((run) => unitFactor(run.unitOf[metric] ?? '')));
    compared.push({ metric, kreplay: value, ncu: runs, within: agrees(value, runs, rounding, tolerance) });
  }
  const collected = new Set(kreplay.metrics);
  const missing = sectionMetrics.filter((metric) => !collected.has(metric)).map((metric) => ({ metric, leftOut: leftOut.includes(metric) }));
  return { section, compared, missing, extra };
}

/** Whether a comparison passes: no name kreplay has that ncu lacks, none ncu has that kreplay neither has nor says it leaves out, no value outside. */
export function passes(result) {
  return result.extra.length === 0 && result.missing.every((entry) => entry.leftOut) && result.compared.every((entry) => entry.within !== false);
}

const format = (value) => (typeof value === 'number' ? Number(value.toPrecision(6)).toString() : JSON.stringify(value));

/** The summary of comparisons, one paragraph per section. */
export function describeComparisons(results) {
  const lines = [];
  for (const result of results) {
    const numeric = result.compared.filter((entry) => entry.within !== null);
    const outside = numeric.filter((entry) => !entry.within);
    const unexplained = result.missing.filter((entry) => !entry.leftOut);
    lines.push(
      `${result.section}: ${passes(result) ? 'same names, values within ncu\'s spread' : 'DIFFERS'}; ${result.compared.length} metrics of both, ${numeric.length - outside.length}/${numeric.length} values within ncu's spread; ` +
        `${result.missing.length - unexplained.length} left out as the section says, ${unexplained.length} missing, ${result.extra.length} ncu lacks`,
    );
    for (const entry of outside) lines.push(`  outside: ${entry.metric} kreplay ${format(entry.kreplay)}, ncu ${entry.ncu.map(format).join(', ')}`);
    for (const entry of unexplained) lines.push(`  missing: ${entry.metric}`);
    for (const metric of result.extra) lines.push(`  ncu lacks: ${metric}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The comparisons of a folder of sections-vs-ncu.sh: for each kreplay-<Section>.csv, the
 * ncu-<Section>-<n>.csv runs; ncu-baseline.csv gives the columns every raw page holds, sections.json
 * (kreplay profile --list-sections --json) what each section leaves out.
 */
export function compareFolder(folder, tolerance = 0) {
  const files = readdirSync(folder);
  const always = files.includes('ncu-baseline.csv') ? readRawPage(readFileSync(join(folder, 'ncu-baseline.csv'), 'utf8')).metrics.filter((metric) => !metric.startsWith('gpu__time_duration')) : [];
  // `kreplay profile --list-sections --json`: { sections, missing, sets }.
  const definitions = files.includes('sections.json') ? JSON.parse(readFileSync(join(folder, 'sections.json'), 'utf8')).sections : [];
  return files
    .map((file) => /^kreplay-(.+)\.csv$/.exec(file)?.[1])
    .filter((section) => section !== undefined)
    .sort()
    .map((section) => {
      const runs = files.filter((file) => new RegExp(`^ncu-${section}-\\d+\\.csv$`).test(file)).map((file) => readRawPage(readFileSync(join(folder, file), 'utf8')));
      const definition = definitions.find((candidate) => candidate.identifier === section);
      const leftOut = (definition?.leftOut ?? []).flatMap((entry) => entry.names);
      return compareSection({ section, ncuRuns: runs, kreplay: readRawPage(readFileSync(join(folder, `kreplay-${section}.csv`), 'utf8')), always, leftOut, tolerance });
    });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = process.argv[2];
  if (folder === undefined) {
    console.error('usage: node compare-sections.mjs OUT [relative tolerance beyond ncu\'s spread, default 0]');
    process.exit(2);
  }
  const results = compareFolder(folder, Number(process.argv[3] ?? 0));
  const summary = describeComparisons(results);
  writeFileSync(join(folder, 'summary.txt'), summary);
  writeFileSync(join(folder, 'summary.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(summary);
  process.exit(results.every(passes) ? 0 : 1);
}
