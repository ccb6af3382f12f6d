#!/usr/bin/env node
// The summary of counter-experiment.sh: for every metric that ncu and a kreplay variant both
// measured, the median over launches of kreplay's value / ncu's (launches matched in order, by
// kernel name), each variant in a column; then the l1tex throughput and its largest inputs of
// each launch.
//   node compare-counters.mjs <folder written by counter-experiment.sh> [reference]
// The reference is ncu's CSV in the folder that the variants are compared with: ncu-1.csv (or
// ncu.csv) unless named, e.g. ncu-breakdown.csv for the breakdown/ variant of BREAKDOWN.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, parseNcu, sameKernel } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const folder = process.argv[2];
const named = process.argv[3];
const reference = (named ? [named] : ['ncu-1.csv', 'ncu.csv']).find((name) => folder && existsSync(join(folder, name)));
if (!reference) {
  console.error(`usage: compare-counters.mjs <folder written by counter-experiment.sh, with ${named ?? 'ncu-1.csv'}> [reference]`);
  process.exit(2);
}
const ncu = parseNcu(readFileSync(join(folder, reference), 'utf8'));
/** ncu's other runs, as variants: their ratios to the first are ncu's own run-to-run spread. */
const ncuRuns = [];
for (let run = 2; !named && existsSync(join(folder, `ncu-${run}.csv`)); run += 1) {
  const kernels = parseNcu(readFileSync(join(folder, `ncu-${run}.csv`), 'utf8'));
  const metrics = Object.keys(kernels[0]?.metrics ?? {});
  ncuRuns.push({ name: `ncu-${run}`, profile: { metrics, dispatches: kernels.map((kernel) => ({ kernel: kernel.name, metrics: kernel.metrics })) } });
}
const kreplayVariants = readdirSync(folder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, 'profile.json')))
  .map((entry) => {
    const text = readFileSync(join(folder, entry.name, 'profile.json'), 'utf8').trim();
    try {
      return { name: entry.name, profile: JSON.parse(text.split('\n').at(-1)) };
    } catch {
      return { name: entry.name, profile: null };
    }
  })
  .filter((variant) => variant.profile !== null);
const variants = [...ncuRuns, ...kreplayVariants];
console.log(`ncu launches ${ncu.length}; variants: ${variants.map((v) => `${v.name} (${v.profile.dispatches.length} launches)`).join(', ')}`);

/** Whether a row is ncu's launch: the same demangled name (another ncu run) or its symbol (kreplay). */
const matches = (ncuName, kernel) => kernel === ncuName || sameKernel(ncuName, kernel);

/** kreplay's value / ncu's for each launch both measured (same kernel, both values positive). */
function ratios(variant, metric) {
  const out = [];
  variant.profile.dispatches.forEach((row, index) => {
    const theirs = ncu[index];
    const ours = row.metrics?.[metric];
    if (!theirs || !matches(theirs.name, row.kernel ?? '')) return;
    const reference = theirs.metrics[metric];
    if (Number.isFinite(ours) && Number.isFinite(reference) && reference > 0) out.push(ours / reference);
  });
  return out;
}

const metrics = [...new Set(kreplayVariants.flatMap((variant) => variant.profile.metrics))].filter((metric) =>
  ncu.some((kernel) => Number.isFinite(kernel.metrics[metric])),
);
const cell = (values) => (values.length === 0 ? '-' : `${median(values).toFixed(3)} (${values.length})`);
console.log(`\n| metric | ${variants.map((v) => v.name).join(' | ')} |`);
console.log(`|---|${variants.map(() => '---').join('|')}|`);
for (const metric of metrics) console.log(`| ${metric} | ${variants.map((v) => cell(ratios(v, metric))).join(' | ')} |`);

// Launch by launch: ncu's l1tex throughput and each variant's, with their active cycles.
const l1tex = 'l1tex__throughput.avg.pct_of_peak_sustained_active';
const active = 'l1tex__cycles_active.sum';
const duration = 'gpu__time_duration.sum';
const value = (number) => (Number.isFinite(number) ? Number(number.toPrecision(4)).toString() : '-');
console.log(`\n| # | kernel | ncu ${l1tex} / ${active} / ${duration} | ${variants.map((v) => v.name).join(' | ')} |`);
console.log(`|---|---|---|${variants.map(() => '---').join('|')}|`);
ncu.forEach((kernel, index) => {
  const theirs = `${value(kernel.metrics[l1tex])} / ${value(kernel.metrics[active])} / ${value(kernel.metrics[duration])}`;
  const ours = variants.map((variant) => {
    const row = variant.profile.dispatches[index];
    if (!row || !matches(kernel.name, row.kernel ?? '')) return '-';
    return `${value(row.metrics?.[l1tex])} / ${value(row.metrics?.[active])} / ${value(row.metrics?.[duration])}`;
  });
  console.log(`| ${index} | ${kernel.name.slice(0, 60)} | ${theirs} | ${ours.join(' | ')} |`);
});
