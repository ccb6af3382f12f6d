// Reading `ncu --csv --page raw` files and matching their kernels to kreplay's launches, and finding
// them and kreplay's variants in a folder of counter-experiment.sh; shared by summarize.mjs and the
// experiments of the repository's experiments/profile-against-ncu (compare-counters.mjs,
// placement-effect.mjs, replay-under-ncu.mjs, pool-runs.mjs and others).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * The file names <prefix>-N.csv of `folder`, in the order of N: every one, also where the numbers
 * start above 1 or skip (a call with NCU_FIRST_RUN=3 writes its runs from ncu-3.csv).
 */
export function ncuRunFiles(folder, prefix) {
  const pattern = new RegExp(`^${prefix}-(\\d+)\\.csv$`);
  return readdirSync(folder)
    .map((file) => [file, pattern.exec(file)?.[1]])
    .filter(([, number]) => number !== undefined)
    .sort(([, a], [, b]) => Number(a) - Number(b))
    .map(([file]) => file);
}

/** The runs of ncuRunFiles, parseNcu each. */
export function readNcuRuns(folder, prefix) {
  return ncuRunFiles(folder, prefix).map((file) => parseNcu(readFileSync(join(folder, file), 'utf8')));
}

/** The variants of a folder of counter-experiment.sh: its subfolders that hold a profile.json. */
export function variantNames(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, 'profile.json')))
    .map((entry) => entry.name);
}

/**
 * What each ncu run of `folder` measured, as counter-experiment.sh recorded it in ncu-runs.txt
 * ("ncu-1.csv: set sol --clock-control none ... -- train_step.py --layers 1"): file name to the
 * rest of its line. Empty for a folder written before it recorded them.
 */
export function ncuRunDescriptions(folder) {
  const file = join(folder, 'ncu-runs.txt');
  if (!existsSync(file)) return new Map();
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.includes(': '));
  return new Map(lines.map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]));
}

/**
 * What a run measured, its launch count left out (ncu-runs.txt's description of it): ncu profiles
 * the first N launches of the same sequence, so runs of another --launch-count measure the same
 * launches as far as the shorter one goes, and are judged over those (summarize.mjs judges the
 * launches every run holds).
 */
export function measuredLaunches(description) {
  return description.replace(/--launch-count \d+/, '--launch-count <n>');
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
