#!/usr/bin/env node
// Do kreplay's replayed kernels, measured by ncu itself, agree with the program's? Reads a folder of
// counter-experiment.sh with NCU_REPLAY_RUNS: ncu's runs on the program (ncu-N.csv) and on
// `kreplay replay --capture` of the same launches (ncu-replay-N.csv). Judges each replay run by the
// held-out rule of agreement.mjs beside the held-out program run, and prints per metric the median
// relative difference of the replay runs' mean from the program runs' mean. If the replay agrees as
// often as ncu agrees with itself, the replay re-creates the kernels' conditions (memory, launch,
// module) and what differs under `kreplay profile` comes from its passes; if not, from the replay.
//   node replay-under-ncu.mjs <folder> [metric]
import { agreeingKernels } from '../../packages/bench/scripts/capture-acceptance/agreement.mjs';
import { mean, median, readNcuRuns } from '../../packages/bench/scripts/capture-acceptance/ncu-csv.mjs';

const [folder, chosen = 'gpu__time_duration.sum'] = process.argv.slice(2);
const program = folder ? readNcuRuns(folder, 'ncu') : [];
const replay = folder ? readNcuRuns(folder, 'ncu-replay') : [];
if (!folder || program.length < 3 || replay.length === 0) {
  console.error('usage: replay-under-ncu.mjs <folder of counter-experiment.sh with NCU_RUNS >= 3 and NCU_REPLAY_RUNS >= 1> [metric]');
  process.exit(2);
}
const metrics = Object.keys(program[0][0].metrics).filter((name) => name.includes('__'));
const launches = Math.min(...program.map((run) => run.length), ...replay.map((run) => run.length));
const sameNames = (index) => replay.every((run) => run[index].name === program[0][index].name);
const mismatched = [...Array(launches).keys()].filter((index) => !sameNames(index));
console.log(`launches: ${launches} (program runs ${program.map((run) => run.length).join(', ')}; replay runs ${replay.map((run) => run.length).join(', ')})`);
if (mismatched.length > 0) console.log(`launches whose kernel differs between program and replay (left out): ${mismatched.join(', ')}`);

console.log(`\ndistinct kernels within ncu's spread (|value - mean| <= max - min of the other ${program.length - 1} program runs), each program run held out in turn:`);
for (let held = 0; held < program.length; held += 1) {
  const others = program.filter((_, run) => run !== held);
  const judge = (candidate) => agreeingKernels(others, (index) => (index < launches && sameNames(index) ? candidate[index].metrics : null), metrics);
  const itself = judge(program[held]);
  const replays = replay.map(judge);
  console.log(`  run ${held + 1} held out: the held-out program run agrees on ${itself.agreeing.length} of ${itself.judged}; replay runs on ${replays.map((verdict) => verdict.agreeing.length).join(', ')} of ${replays[0].judged}`);
}

const percent = (value) => (Number.isFinite(value) ? `${(100 * value).toFixed(2)}%` : '-');
/** Per launch: the replay runs' mean relative to the program runs' mean, and the program runs' spread. */
const differences = (metric) => {
  const out = [];
  for (let index = 0; index < launches; index += 1) {
    if (!sameNames(index)) continue;
    const reference = program.map((run) => run[index].metrics[metric]);
    const replayed = replay.map((run) => run[index].metrics[metric]);
    if (!reference.every(Number.isFinite) || !replayed.every(Number.isFinite) || mean(reference) === 0) continue;
    out.push({ index, name: program[0][index].name, difference: (mean(replayed) - mean(reference)) / mean(reference), spread: (Math.max(...reference) - Math.min(...reference)) / mean(reference) });
  }
  return out;
};
console.log('\n| metric | median (replay - program) / program | median abs | median program run-to-run spread |');
console.log('|---|---|---|---|');
for (const metric of metrics) {
  const rows = differences(metric);
  console.log(`| ${metric} | ${percent(median(rows.map((row) => row.difference)))} | ${percent(median(rows.map((row) => Math.abs(row.difference))))} | ${percent(median(rows.map((row) => row.spread)))} |`);
}
console.log(`\n${chosen}, launch by launch: (replay - program) / program, program spread`);
for (const row of differences(chosen)) console.log(`  ${String(row.index).padStart(3)} ${percent(row.difference).padStart(8)} ${percent(row.spread).padStart(7)}  ${row.name.slice(0, 90)}`);
