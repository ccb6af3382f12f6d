#!/usr/bin/env node
// How far would matching ncu's DRAM writes bring a variant of `kreplay profile capture:`? DRAM
// throughput is DRAM sectors moved per DRAM cycle, so a launch that wrote ncu's sectors in kreplay's
// cycles would read kreplay's DRAM throughput times (kreplay's sectors read + the mean of ncu's
// sectors written) / (kreplay's sectors read + written). This writes that variant beside the folder's
// others, as <variant>-ncu-dram-writes/profile.json, for summarize.mjs to judge: an estimate of what
// a pass environment that left ncu's dirty lines in the L2 could gain, every other metric kept (the
// time those writes could add to the kernel is left out).
// Where the compute-memory throughput was the DRAM throughput (they agree to 0.1%), it becomes the
// larger of the new DRAM throughput and the lts throughput; the DRAM counters are not changed.
// The variant and ncu's runs must hold dram__sectors_read.sum and dram__sectors_write.sum (the
// counters of counter-experiment.sh's `all` set).
//   node dram-write-ceiling.mjs <folder of counter-experiment.sh> <variant>
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mean, readNcuRuns, sameKernel } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const read = 'dram__sectors_read.sum';
const written = 'dram__sectors_write.sum';
const dram = ['dram__throughput.avg.pct_of_peak_sustained_elapsed', 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed'];
const computeMemory = 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed';
const lts = 'lts__throughput.avg.pct_of_peak_sustained_elapsed';

function fail(message) {
  console.error(`dram-write-ceiling.mjs: ${message}`);
  process.exit(2);
}

const [folder, variant] = process.argv.slice(2);
if (!folder || !variant) fail('usage: dram-write-ceiling.mjs <folder of counter-experiment.sh> <variant>');
const profileFile = join(folder, variant, 'profile.json');
if (!existsSync(profileFile)) fail(`${profileFile} does not exist: name a variant of the folder (a subfolder with a profile.json)`);
const profile = JSON.parse(readFileSync(profileFile, 'utf8').trim().split('\n').at(-1));
const runs = readNcuRuns(folder, 'ncu');
if (runs.length === 0) fail(`${folder} holds no ncu-N.csv`);
for (const needed of [read, written, ...dram]) {
  if (!profile.metrics.includes(needed)) fail(`${variant} did not measure ${needed}: profile it with the counters (metric set all)`);
  if (!runs.every((run) => run.every((kernel) => Number.isFinite(kernel.metrics[needed])))) {
    fail(`ncu's runs do not all hold ${needed}: run ncu with NCU_SET=all`);
  }
}

let changed = 0;
const dispatches = profile.dispatches.map((dispatch, index) => {
  const kernels = runs.map((run) => run[index]);
  if (kernels.some((kernel) => !kernel || !sameKernel(kernel.name, dispatch.kernel ?? ''))) return dispatch;
  const metrics = { ...dispatch.metrics };
  const moved = metrics[read] + metrics[written];
  if (!(moved > 0)) return dispatch;
  const scale = (metrics[read] + mean(kernels.map((kernel) => kernel.metrics[written]))) / moved;
  const wasDram = Math.abs(metrics[computeMemory] - metrics[dram[0]]) <= 0.001 * metrics[dram[0]];
  for (const metric of dram) metrics[metric] *= scale;
  if (wasDram) metrics[computeMemory] = Math.max(metrics[dram[0]], metrics[lts] ?? 0);
  changed += 1;
  return { ...dispatch, metrics };
});
const out = join(folder, `${variant}-ncu-dram-writes`);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'profile.json'), `${JSON.stringify({ ...profile, dispatches })}\n`);
console.log(`${out}/profile.json: ${changed} of ${dispatches.length} launches given ncu's DRAM sectors written`);
