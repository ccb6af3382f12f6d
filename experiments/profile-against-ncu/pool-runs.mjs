#!/usr/bin/env node
// One folder of several runs of counter-experiment.sh, for summarize.mjs and replay-under-ncu.mjs to
// judge kreplay against more ncu runs than one call of the GPU machine makes (for example when the
// machine was lost between calls and the second call captured again).
//   node pool-runs.mjs <pooled folder> <run folder>[=<label>]... [--leave-out <label>/<file>]...
// - ncu's runs (ncu-N.csv, ncu-replay-N.csv, ncu-moved-N.csv) of every run folder, in the order
//   given, numbered from 1 for each kind; --leave-out names one to leave out (label/ncu-replay-2.csv)
//   or all of a kind in one folder (label/ncu-replay).
// - Runs of one kind are pooled only when what they measured agrees: the machine (machine.txt: GPU,
//   driver, ncu) and, where counter-experiment.sh recorded it, each run's ncu options and program
//   (ncu-runs.txt); runs of another --launch-count are pooled (the same first launches, judged as
//   far as the shorter run goes). Anything else is an error that names both and how to leave one out.
// - machine.txt, timings.txt, capture.json, replay.json and attributes.txt of the last run folder.
// - kreplay's variants (folders with a profile.json): the last run folder's under their own names,
//   the others' as <label>-<variant>. A label is the folder's name unless given.
// Writes <pooled folder>/pooled-from.txt: where each pooled file came from.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { measuredLaunches, ncuRunDescriptions, ncuRunFiles, variantNames } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const kinds = ['ncu', 'ncu-replay', 'ncu-moved'];
const sharedFiles = ['machine.txt', 'timings.txt', 'capture.json', 'replay.json', 'attributes.txt'];

function fail(message) {
  console.error(`pool-runs.mjs: ${message}`);
  process.exit(2);
}

const args = process.argv.slice(2);
const leftOut = new Set();
const positional = [];
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === '--leave-out') leftOut.add(args[++index] ?? fail('--leave-out needs <label>/<file>, for example run-13/ncu-replay'));
  else positional.push(args[index]);
}
const [pooled, ...given] = positional;
if (!pooled || given.length === 0) fail('usage: pool-runs.mjs <pooled folder> <run folder>[=<label>]... [--leave-out <label>/<file>]...');
const runs = given.map((argument) => {
  const [folder, label = basename(folder.replace(/\/+$/, ''))] = argument.split('=');
  if (!existsSync(join(folder, 'machine.txt'))) fail(`${folder} holds no machine.txt: it is not a folder written by counter-experiment.sh`);
  return { folder, label, descriptions: ncuRunDescriptions(folder) };
});
const labels = runs.map((run) => run.label);
if (new Set(labels).size !== labels.length) fail(`two run folders have the label ${labels.find((label, index) => labels.indexOf(label) !== index)}: give one another with <folder>=<label>`);

const machine = (run) => readFileSync(join(run.folder, 'machine.txt'), 'utf8').trim();
for (const run of runs.slice(1)) {
  if (machine(run) !== machine(runs[0])) fail(`${run.folder} was measured on another machine than ${runs[0].folder}:\n  ${machine(run)}\n  ${machine(runs[0])}\nruns of different machines, drivers or ncu versions are not pooled`);
}

mkdirSync(pooled, { recursive: true });
if (readdirSync(pooled).length > 0) fail(`${pooled} is not empty: pool into a new folder`);
const origins = [];
for (const kind of kinds) {
  let first = null; // the first run of this kind whose ncu-runs.txt says what it measured
  let number = 0;
  for (const run of runs) {
    if (leftOut.has(`${run.label}/${kind}`)) continue;
    for (const file of ncuRunFiles(run.folder, kind)) {
      if (leftOut.has(`${run.label}/${file}`)) continue;
      const description = run.descriptions.get(file) ?? null;
      if (first === null && description !== null) first = { run, file, description };
      else if (description !== null && measuredLaunches(description) !== measuredLaunches(first.description)) {
        fail(`${run.label}/${file} measured another thing than ${first.run.label}/${first.file}:\n  ${description}\n  ${first.description}\nleave one out with --leave-out ${run.label}/${file} (or --leave-out ${run.label}/${kind} for all of its ${kind} runs)`);
      }
      number += 1;
      copyFileSync(join(run.folder, file), join(pooled, `${kind}-${number}.csv`));
      origins.push(`${kind}-${number}.csv: ${run.label}/${file}${description === null ? ' (what it measured is not recorded)' : `: ${description}`}`);
    }
  }
}

const last = runs.at(-1);
for (const name of sharedFiles.filter((file) => existsSync(join(last.folder, file)))) {
  copyFileSync(join(last.folder, name), join(pooled, name));
  origins.push(`${name}: ${last.label}/${name}`);
}
for (const run of runs) {
  for (const variant of variantNames(run.folder)) {
    const name = run === last ? variant : `${run.label}-${variant}`;
    cpSync(join(run.folder, variant), join(pooled, name), { recursive: true });
    origins.push(`${name}/: ${run.label}/${variant}/`);
  }
}
writeFileSync(join(pooled, 'pooled-from.txt'), `${origins.join('\n')}\n`);
console.log(origins.join('\n'));
