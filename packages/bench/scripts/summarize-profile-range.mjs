#!/usr/bin/env node
// Summarizes the files profile-range-vs-ncu.sh writes into one table: wall time per kernel of ncu's
// kernel replay (the marginal cost: the difference between ncu over KERNELS and over SMALL kernels,
// so ncu's start-up is not counted against it), of kreplay one dispatch at a time and of kreplay
// range replay at each K (the report's wall time from the first dispatch to the last result, over
// its dispatches: the first range's mirror build is counted), their ratio to ncu, and per metric
// the mean of every mode beside ncu's spread over its kernels (min..max), with whether the mean lies
// inside it. Usage: node summarize-profile-range.mjs <folder>
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: summarize-profile-range.mjs <folder written by profile-range-vs-ncu.sh>');
  process.exit(2);
}
const timings = Object.fromEntries(
  readFileSync(join(folder, 'timings.txt'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/))
    .map(([name, seconds, kernels]) => [name, { seconds: Number(seconds), kernels: Number(kernels) }]),
);

/** Splits one CSV line (ncu quotes every field). */
function csvFields(line) {
  const fields = [];
  const pattern = /"((?:[^"]|"")*)"|([^,]+)|(?<=,)(?=,|$)/g;
  for (const match of line.matchAll(pattern)) fields.push((match[1] ?? match[2] ?? '').replace(/""/g, '"'));
  return fields;
}

const timeScale = { nsecond: 1, usecond: 1e3, msecond: 1e6, second: 1e9 };
/** ncu's --csv --page raw table: one row of values per kernel, by metric name. */
function readNcu(path) {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.startsWith('"'));
  const [header, units, ...rows] = lines.map(csvFields);
  return rows.map((row) =>
    Object.fromEntries(
      header.map((name, index) => {
        const value = Number(String(row[index]).replace(/,/g, ''));
        const unit = units[index];
        return [name, name === 'gpu__time_duration.sum' && unit in timeScale ? value * timeScale[unit] : value];
      }),
    ),
  );
}

const statistics = (values) => {
  const finite = values.filter((value) => Number.isFinite(value));
  const mean = finite.reduce((sum, value) => sum + value, 0) / Math.max(finite.length, 1);
  return { mean, min: Math.min(...finite), max: Math.max(...finite), count: finite.length };
};

const modes = [];
for (const cache of ['all', 'none']) {
  const path = join(folder, `ncu-${cache}.csv`);
  if (!existsSync(path)) continue;
  const big = timings[`ncu-${cache}`];
  const small = timings[`ncu-${cache}-small`];
  const perKernelMs = small ? (1000 * (big.seconds - small.seconds)) / (big.kernels - small.kernels) : (1000 * big.seconds) / big.kernels;
  modes.push({ name: `ncu --cache-control ${cache}`, cache, perKernelMs, rows: readNcu(path) });
}
const reports = readdirSync(folder)
  .filter((name) => /^kreplay-.*\.json$/.test(name))
  .map((name) => ({ name, report: JSON.parse(readFileSync(join(folder, name), 'utf8')) }))
  .sort((left, right) => left.report.range - right.report.range || left.report.cacheControl.localeCompare(right.report.cacheControl));
for (const { report } of reports) {
  const label = report.range === 1 ? 'kreplay one at a time' : `kreplay range K=${report.range}, cache ${report.cacheControl}`;
  const failed = report.dispatches.filter((row) => row.metrics === null).length;
  modes.push({
    name: label,
    cache: report.range === 1 ? 'all' : report.cacheControl,
    perKernelMs: report.wallMs / report.dispatches.length,
    rows: report.dispatches.map((row) => row.metrics ?? {}),
    failed,
    passes: report.passes,
  });
}
const reference = modes.find((mode) => mode.name === 'ncu --cache-control all');
const lines = [readFileSync(join(folder, 'machine.txt'), 'utf8').trim(), ''];
lines.push('mode'.padEnd(38) + 'ms/kernel'.padStart(11) + '  vs ncu all' + '  kernels  without values');
for (const mode of modes) {
  const ratio = reference ? `${(reference.perKernelMs / mode.perKernelMs).toFixed(1)}x`.padStart(11) : ''.padStart(11);
  lines.push(`${mode.name.padEnd(38)}${mode.perKernelMs.toFixed(2).padStart(11)}${ratio}  ${String(mode.rows.length).padStart(7)}  ${String(mode.failed ?? 0).padStart(14)}`);
}
const metrics = Object.keys(reports[0]?.report.units ?? {});
for (const metric of metrics) {
  lines.push('', metric);
  for (const mode of modes) {
    const own = statistics(mode.rows.map((row) => row[metric]));
    const ncu = modes.find((other) => other.name === `ncu --cache-control ${mode.cache}`);
    const spread = ncu && statistics(ncu.rows.map((row) => row[metric]));
    const inside = spread && mode !== ncu ? (own.mean >= spread.min && own.mean <= spread.max ? `  inside ncu ${mode.cache}'s ${spread.min.toPrecision(4)}..${spread.max.toPrecision(4)}` : `  OUTSIDE ncu ${mode.cache}'s ${spread.min.toPrecision(4)}..${spread.max.toPrecision(4)}`) : '';
    lines.push(`  ${mode.name.padEnd(36)} mean ${own.mean.toPrecision(5).padStart(11)}  min ${own.min.toPrecision(5).padStart(11)}  max ${own.max.toPrecision(5).padStart(11)}${inside}`);
  }
}
console.log(lines.join('\n'));
