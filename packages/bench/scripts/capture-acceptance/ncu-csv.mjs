// Reading `ncu --csv --page raw` files and matching their kernels to kreplay's launches; shared by
// summarize.mjs, compare-counters.mjs, placement-effect.mjs and replay-under-ncu.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The kernels of an `ncu --csv --page raw` file (or of ncu-report-csv.py, the same shape at full
 * precision), in launch order: name and metric values. An empty cell is no value.
 */
export function parseNcu(text) {
  const lines = text.split('\n').filter((line) => line.startsWith('"'));
  if (lines.length < 2) return [];
  const cells = (line) => line.slice(1, -1).split('","');
  const header = cells(lines[0]);
  const nameColumn = header.indexOf('Kernel Name');
  const idColumn = header.indexOf('ID');
  const kernels = [];
  for (const line of lines.slice(2)) {
    const row = cells(line);
    const metrics = {};
    header.forEach((column, index) => {
      if (!row[index]) return;
      const value = Number(row[index].replace(/,/g, ''));
      if (Number.isFinite(value)) metrics[column] = value;
    });
    kernels.push({ id: Number(row[idColumn]), name: row[nameColumn], metrics });
  }
  return kernels.sort((a, b) => a.id - b.id);
}

/** The runs <prefix>-1.csv, <prefix>-2.csv, ... of `folder` (parseNcu each), up to the first missing. */
export function readNcuRuns(folder, prefix) {
  const runs = [];
  for (let run = 1; existsSync(join(folder, `${prefix}-${run}.csv`)); run += 1) runs.push(parseNcu(readFileSync(join(folder, `${prefix}-${run}.csv`), 'utf8')));
  return runs;
}

/**
 * ncu prints demangled names, kreplay the mangled symbol: compare by the demangled function's base
 * name (anonymous namespaces, which ncu prints as `<unnamed>`, and template arguments left out).
 */
export function sameKernel(ncuName, symbol) {
  const base = ncuName.replace(/\(.*$/, '').replace(/<unnamed>::/g, '').replace(/<.*$/, '').split('::').pop().trim().split(' ').pop();
  return base.length > 0 && symbol.includes(base);
}

/** The mean of some numbers (NaN for none). */
export function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The median of some numbers (NaN for none). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
}
