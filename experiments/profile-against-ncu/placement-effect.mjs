#!/usr/bin/env node
// How much the physical pages under a program's memory move its counters, beside ncu's own
// run-to-run spread: for ncu, its runs on train_step.py --pad-mib (ncu-moved-N.csv, memory on
// other physical pages) against its plain runs (ncu-N.csv); for kreplay, each variant against the
// base variant (KREPLAY_FIXED_MEMORY_PHYSICAL_PAD_MIB moves the replay's memory). Reads a folder of
// counter-experiment.sh with NCU_MOVED_RUNS; prints, per metric, medians over launches of the
// relative differences, then one metric launch by launch.
//   node placement-effect.mjs <folder> <base variant> [metric]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mean, median, readNcuRuns, variantNames } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const [folder, base, chosen = 'lts__throughput.avg.pct_of_peak_sustained_elapsed'] = process.argv.slice(2);
if (!folder || !base || !existsSync(join(folder, base, 'profile.json'))) {
  console.error('usage: placement-effect.mjs <folder of counter-experiment.sh with NCU_MOVED_RUNS> <base variant> [metric]');
  process.exit(2);
}
const plain = readNcuRuns(folder, 'ncu');
const moved = readNcuRuns(folder, 'ncu-moved');
const profile = (name) => JSON.parse(readFileSync(join(folder, name, 'profile.json'), 'utf8').trim().split('\n').at(-1));
const variants = variantNames(folder)
  .filter((name) => name !== base)
  .map((name) => ({ name, rows: profile(name).dispatches }));
const baseProfile = profile(base);
const launches = Math.min(baseProfile.dispatches.length, ...plain.map((run) => run.length), ...moved.map((run) => run.length));
const relative = (value, reference) => (value - reference) / reference;
const percent = (value) => (Number.isFinite(value) ? `${(100 * value).toFixed(2)}%` : '-');

/** Per launch: ncu's plain mean and spread, moved ncu, base kreplay and each variant, relative to ncu's plain mean. */
function rows(metric) {
  const out = [];
  for (let index = 0; index < launches; index += 1) {
    const values = plain.map((run) => run[index].metrics[metric]);
    const reference = mean(values);
    if (!values.every(Number.isFinite) || !(reference > 0)) continue;
    out.push({
      index,
      name: plain[0][index].name,
      reference,
      spread: (Math.max(...values) - Math.min(...values)) / reference,
      moved: moved.length > 0 ? relative(mean(moved.map((run) => run[index].metrics[metric])), reference) : Number.NaN,
      base: relative(baseProfile.dispatches[index].metrics[metric], reference),
      variants: variants.map((variant) => relative(variant.rows[index].metrics[metric], reference)),
    });
  }
  return out;
}

console.log(`ncu runs ${plain.length}, moved ${moved.length}; kreplay ${base} and ${variants.map((v) => v.name).join(', ')}; ${launches} launches`);
console.log(`\n| metric | median ncu spread | median |moved ncu - ncu| | ${variants.map((v) => `median |${v.name} - ${base}|`).join(' | ')} |`);
console.log(`|---|---|---|${variants.map(() => '---').join('|')}|`);
for (const metric of baseProfile.metrics) {
  const table = rows(metric);
  const moves = variants.map((_, at) => median(table.map((row) => Math.abs(row.variants[at] - row.base))));
  console.log(`| ${metric} | ${percent(median(table.map((row) => row.spread)))} | ${percent(median(table.map((row) => Math.abs(row.moved))))} | ${moves.map(percent).join(' | ')} |`);
}
console.log(`\n${chosen}, relative to the mean of ncu's plain runs:`);
console.log(`| # | kernel | ncu | spread | moved ncu | ${base} | ${variants.map((v) => v.name).join(' | ')} |`);
console.log(`|---|---|---|---|---|---|${variants.map(() => '---').join('|')}|`);
for (const row of rows(chosen)) {
  console.log(`| ${row.index} | ${row.name.slice(0, 50)} | ${row.reference.toPrecision(4)} | ${percent(row.spread)} | ${percent(row.moved)} | ${percent(row.base)} | ${row.variants.map(percent).join(' | ')} |`);
}
