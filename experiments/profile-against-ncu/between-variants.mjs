#!/usr/bin/env node
// Where do ncu's values lie between two variants of `kreplay profile capture:`? For each launch of a
// folder of counter-experiment.sh: the mean of ncu's runs on the program, the two variants' values
// (for example `warm`, instruction caches evicted before each pass, and `noicache`, left warm), and
// the position (ncu mean - low variant) / (high variant - low variant): 0 where ncu reads as the low
// variant, 1 where it reads as the high one. Launches whose variants differ by less than ncu's own
// spread get no position. Each line carries the kernel's bytes of machine code and registers from
// capture.json (kreplay capture's summary), so that positions can be set against code size.
//   node between-variants.mjs <folder> <high variant> <low variant> [metric]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mean, median, readNcuRuns, sameKernel } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const [folder, high, low, metric = 'gpu__time_duration.sum'] = process.argv.slice(2);
const profileOf = (variant) => join(folder ?? '', variant ?? '', 'profile.json');
const runs = folder ? readNcuRuns(folder, 'ncu') : [];
if (!folder || !high || !low || runs.length < 2 || !existsSync(profileOf(high)) || !existsSync(profileOf(low))) {
  console.error('usage: between-variants.mjs <folder of counter-experiment.sh with NCU_RUNS >= 2> <high variant> <low variant> [metric]');
  process.exit(2);
}
const rows = (variant) => JSON.parse(readFileSync(profileOf(variant), 'utf8')).dispatches;
const [highRows, lowRows] = [rows(high), rows(low)];
/** Code size and registers by function, from the last line of capture.json (kreplay capture --json). */
const code = new Map();
if (existsSync(join(folder, 'capture.json'))) {
  const summary = JSON.parse(readFileSync(join(folder, 'capture.json'), 'utf8').trim().split('\n').at(-1));
  for (const kernel of summary.capture?.kernels ?? []) code.set(kernel.function, kernel);
}

const positions = [];
console.log(`| launch | kernel | code bytes | registers | ncu mean | ncu spread | ${high} | ${low} | position |`);
console.log('|---|---|---|---|---|---|---|---|---|');
const launches = Math.min(...runs.map((run) => run.length), highRows.length, lowRows.length);
for (let index = 0; index < launches; index += 1) {
  const name = runs[0][index].name;
  const function_ = highRows[index].kernel ?? '';
  if (!sameKernel(name, function_) || lowRows[index].kernel !== function_) continue;
  const values = runs.map((run) => run[index].metrics[metric]);
  const [upper, lower] = [highRows[index].metrics?.[metric], lowRows[index].metrics?.[metric]];
  if (!values.every(Number.isFinite) || !Number.isFinite(upper) || !Number.isFinite(lower)) continue;
  const average = mean(values);
  const spread = Math.max(...values) - Math.min(...values);
  const position = Math.abs(upper - lower) > spread ? (average - lower) / (upper - lower) : null;
  if (position !== null) positions.push(position);
  const kernel = code.get(function_);
  const cells = [index, name.slice(0, 60), kernel?.codeBytes ?? '-', kernel?.registers ?? '-', average.toFixed(1), spread.toFixed(1), upper, lower, position === null ? '-' : position.toFixed(2)];
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(`\n${metric}: ncu's position between ${low} (0) and ${high} (1), median over the ${positions.length} launches whose variants differ by more than ncu's spread: ${positions.length ? median(positions).toFixed(2) : '-'}`);
