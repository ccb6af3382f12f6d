#!/usr/bin/env node
// Noise or bias? For a variant of `kreplay profile capture:` profiled with several samples per
// launch (--samples N; its rows carry sampleMetrics), against the ncu runs of a counter-experiment.sh
// folder:
// - how many distinct kernels each sample alone agrees on (agreement.mjs's rule, against all of
//   ncu's runs), and the medians the profile reports;
// - per metric, the median over launches of kreplay's own spread (largest minus smallest sample, as
//   a share of their mean) beside ncu's over its first N runs (as many runs as samples), and the
//   median over launches of the medians' distance from ncu's mean in units of ncu's spread over all
//   its runs (a bias of 1 or more keeps a launch out whatever the samples).
//   METRICS=sol|<a,b,c> node sample-spread.mjs <folder> <variant>
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agreeingKernels, kreplayValues } from '../../packages/bench/scripts/capture-acceptance/agreement.mjs';
import { judgedMetrics } from '../../packages/bench/scripts/capture-acceptance/judged-metrics.mjs';
import { mean, median, readNcuRuns, sameKernel } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const [folder, variant] = process.argv.slice(2);
const profilePath = join(folder ?? '', variant ?? '', 'profile.json');
const runs = folder ? readNcuRuns(folder, 'ncu') : [];
if (!folder || !variant || runs.length < 2 || !existsSync(profilePath)) {
  console.error('usage: METRICS=sol|<a,b,c> sample-spread.mjs <folder of counter-experiment.sh with ncu-N.csv for N >= 2> <variant with a profile.json>');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
const rows = profile.dispatches;
const samples = Math.max(0, ...rows.map((row) => row.sampleMetrics?.length ?? 0));
if (samples < 2) {
  console.error(`sample-spread.mjs: ${variant}'s profile holds one sample per launch (no sampleMetrics); profile with --samples 2 or more.`);
  process.exit(2);
}
let metrics;
try {
  metrics = judgedMetrics(process.env.METRICS, profile.metrics);
} catch (error) {
  console.error(`sample-spread.mjs: ${error.message}`);
  process.exit(2);
}

const sampleRows = (sample) => rows.map((row) => ({ ...row, metrics: row.sampleMetrics?.[sample] ?? null }));
const judged = (candidateRows) => agreeingKernels(runs, kreplayValues(runs, candidateRows), metrics);
const medians = judged(rows);
console.log(`${variant}: ${samples} samples per launch, against ${runs.length} ncu runs, ${medians.judged} distinct kernels`);
for (let sample = 0; sample < samples; sample += 1) console.log(`  sample ${sample + 1} alone agrees on ${judged(sampleRows(sample)).agreeing.length}`);
console.log(`  the medians (the profile's values) agree on ${medians.agreeing.length}`);

const spread = (values) => (Math.max(...values) - Math.min(...values)) / Math.abs(mean(values));
const percent = (value) => (Number.isFinite(value) ? `${(100 * value).toFixed(2)}%` : 'n/a');
console.log('');
console.log(`| metric | kreplay's spread over ${samples} samples | ncu's over its first ${samples} runs | median |kreplay - ncu mean| / ncu's spread over ${runs.length} runs |`);
console.log('|---|---|---|---|');
const launches = Math.min(rows.length, ...runs.map((run) => run.length));
for (const metric of metrics) {
  const own = [];
  const ncu = [];
  const bias = [];
  for (let index = 0; index < launches; index += 1) {
    const row = rows[index];
    if (!sameKernel(runs[0][index].name, row.kernel ?? '') || !row.sampleMetrics?.every((values) => Number.isFinite(values?.[metric]))) continue;
    const references = runs.map((run) => run[index].metrics[metric]);
    if (!references.every(Number.isFinite)) continue;
    own.push(spread(row.sampleMetrics.map((values) => values[metric])));
    ncu.push(spread(references.slice(0, samples)));
    const range = Math.max(...references) - Math.min(...references);
    if (range > 0) bias.push(Math.abs(row.metrics[metric] - mean(references)) / range);
  }
  console.log(`| ${metric} | ${percent(median(own))} | ${percent(median(ncu))} | ${Number.isFinite(median(bias)) ? median(bias).toFixed(2) : 'n/a'} |`);
}
