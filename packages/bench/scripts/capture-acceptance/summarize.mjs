#!/usr/bin/env node
// The summary of run.sh from the files it wrote: capture's cost, how many launches replayed
// standalone reproduce the program's memory bit-exactly (and the reason for each that does not),
// and kreplay's CUPTI values against ncu's on the program, launch for launch.
//   node summarize.mjs <out folder> [variant] [ncu prefix]
// With a variant (a folder of experiments/profile-against-ncu/counter-experiment.sh), its profile.json is the one judged against ncu.
// The ncu runs are <ncu prefix>-N.csv (default ncu: the program's; ncu-replay: ncu's runs on
// kreplay's replay, NCU_REPLAY_RUNS of counter-experiment.sh).
// METRICS (optional) names the metrics judged, comma-separated, or sol for the SpeedOfLight metrics
// (../speed-of-light-metrics.sh), for a profile that measured counters beside them; default: all of
// the profile's metrics.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockingMetrics, heldOutAgreement, kreplayValues } from './agreement.mjs';
import { durationOffset } from './duration-offset.mjs';
import { judgedMetrics } from './judged-metrics.mjs';
import { mean, measuredLaunches, median, ncuRunDescriptions, ncuRunFiles, readNcuRuns, sameKernel } from './ncu-csv.mjs';

const folder = process.argv[2];
const variant = process.argv[3];
const ncuPrefix = process.argv[4] ?? 'ncu';
if (!folder) {
  console.error('usage: summarize.mjs <folder written by run.sh or counter-experiment.sh> [variant]');
  process.exit(2);
}
const read = (name) => readFileSync(join(folder, name), 'utf8');
/** A JSON file, or the last line of one that also holds the program's own output (kreplay capture passes its stdout through). */
const json = (name) => {
  if (!existsSync(join(folder, name))) return null;
  const text = read(name).trim();
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(text.split('\n').at(-1));
  }
};
// A folder pooled or put together by hand may hold no timings.txt: its costs then read n/a.
const timings = Object.fromEntries(
  (existsSync(join(folder, 'timings.txt')) ? read('timings.txt') : '')
    .trim()
    .split('\n')
    .filter((line) => /^\S+ [\d.]+$/.test(line))
    .map((line) => line.split(' '))
    .map(([label, value]) => [label, Number(value)]),
);
const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
console.log(`machine: ${read('machine.txt').trim().replace(/\n/g, '; ')}`);

// 1. Capture's cost.
const capture = json('capture.json');
const plain = json('program.json');
const captured = capture?.capture;
console.log('\n## Capture cost');
console.log(`program alone: ${fixed(timings.program)} s wall (captured step ${fixed(plain?.capturedStepSeconds, 4)} s)`);
// The program's own line (its captured step's seconds) comes first in capture.json: kreplay capture passes its stdout through.
const capturedProgram = (() => {
  try {
    return JSON.parse(read('capture.json').trim().split('\n')[0]);
  } catch {
    return null;
  }
})();
console.log(`under kreplay capture: ${fixed(timings.capture)} s wall, ${fixed(timings.capture / timings.program)}x (captured step ${fixed(capturedProgram?.capturedStepSeconds, 2)} s)`);
if (captured) {
  console.log(`launches captured: ${captured.launches} of ${captured.kernels.length} kernels; not captured: ${JSON.stringify(captured.notCaptured)}`);
  console.log(`bytes stored: ${captured.bytesStored} in ${captured.blobs} blobs, ${fixed(captured.bytesStored / Math.max(1, captured.launches) / 2 ** 20)} MiB per launch`);
  console.log(`complete: ${captured.complete}; damaged: ${captured.damaged.length}; incomplete: ${captured.incomplete.length}`);
}

// 2. Standalone replay against the program's memory.
const replay = json('replay.json');
console.log('\n## Replay of each launch standalone (--verify full)');
if (replay) {
  const launches = replay.launches;
  console.log(`launches: ${launches.length}; reproduce the program bit-exactly: ${replay.reproduced}; mismatched: ${replay.mismatched.length}; failed: ${replay.failed.length}; damaged: ${replay.damaged.length}`);
  const outcomes = {};
  for (const launch of launches) outcomes[launch.outcome] = (outcomes[launch.outcome] ?? 0) + 1;
  console.log(`outcomes: ${JSON.stringify(outcomes)}`);
  const relocated = launches.filter((row) => row.relocatedRegions > 0);
  console.log(`launches with every region at its captured address: ${launches.length - relocated.length} of ${launches.length}` +
    (relocated.length > 0 ? `; relocated regions per launch, most: ${Math.max(...relocated.map((row) => row.relocatedRegions))}` : ''));
  for (const relocation of replay.relocations ?? []) {
    console.log(`  ${relocation.placement} [0x${relocation.from.toString(16)}, +${relocation.bytes}) relocated: ${relocation.reason.slice(0, 300)}`);
  }
  for (const launch of launches.filter((row) => row.outcome !== 'reproduced')) {
    const why = launch.error ?? launch.declineReason ?? (launch.nondeterministic ? 'passes differ from each other (nondeterministic)' : launch.postLaunch ? JSON.stringify(launch.postLaunch).slice(0, 200) : launch.notes.join('; '));
    console.log(`  #${launch.sequence} ${launch.function.slice(0, 90)}: ${launch.outcome} (${launch.verification}): ${why}`);
  }
} else {
  console.log('no replay.json');
}

// 3. kreplay's values against ncu's, launch for launch.
const profile = json(variant ? join(variant, 'profile.json') : 'profile.json');
const ncuRuns = readNcuRuns(folder, ncuPrefix);
console.log(`\n## kreplay profile capture:${variant ? ` (${variant})` : ''} against ${ncuPrefix === 'ncu' ? 'ncu on the program' : `${ncuPrefix}-N.csv`}`);
// Runs that ncu-runs.txt says measured different things (another program or options) are no spread.
const described = ncuRunDescriptions(folder);
const runFiles = ncuRunFiles(folder, ncuPrefix);
if (new Set(runFiles.map((file) => described.get(file)).filter(Boolean).map(measuredLaunches)).size > 1) {
  console.log(`WARNING: ncu-runs.txt says these ${ncuPrefix} runs measured different things; their spread is not ncu's run-to-run spread:`);
  for (const file of runFiles) console.log(`  ${file}: ${described.get(file) ?? 'not recorded'}`);
}
if (profile && ncuRuns.length > 0) {
  const rows = profile.dispatches;
  let metrics;
  try {
    metrics = judgedMetrics(process.env.METRICS, profile.metrics);
  } catch (error) {
    console.error(`summarize.mjs: ${error.message}`);
    process.exit(2);
  }
  console.log(`metrics judged: ${metrics.length === profile.metrics.length ? 'all' : metrics.length} of the profile's ${profile.metrics.length}`);
  const counts = ncuRuns.map((run) => run.length);
  console.log(`kreplay launches ${rows.length}; ncu kernels per run ${counts.join(', ')}`);
  const comparable = Math.min(rows.length, ...counts);
  let inside = 0;
  let total = 0;
  const byKernel = new Map();
  for (let index = 0; index < comparable; index += 1) {
    const row = rows[index];
    const names = ncuRuns.map((run) => run[index].name);
    const kernel = row.kernel ?? '?';
    if (!names.every((name) => sameKernel(name, kernel))) continue;
    const entry = byKernel.get(kernel) ?? { launches: 0, inside: 0, total: 0 };
    entry.launches += 1;
    for (const metric of metrics) {
      const values = ncuRuns.map((run) => run[index].metrics[metric]).filter(Number.isFinite);
      const value = row.metrics?.[metric];
      if (values.length < ncuRuns.length || !Number.isFinite(value)) continue;
      const low = Math.min(...values);
      const high = Math.max(...values);
      const ok = value >= low && value <= high;
      entry.total += 1;
      total += 1;
      if (ok) {
        entry.inside += 1;
        inside += 1;
      }
    }
    byKernel.set(kernel, entry);
  }
  console.log(`comparisons inside ncu's min..max over ${ncuRuns.length} runs: ${inside} of ${total}`);
  console.log(`distinct kernels compared: ${byKernel.size}`);
  const agreeing = [...byKernel.entries()].filter(([, entry]) => entry.total > 0 && entry.inside === entry.total);
  console.log(`distinct kernels with every metric of every launch inside ncu's spread: ${agreeing.length}`);
  for (const [kernel, entry] of byKernel) console.log(`  ${kernel.slice(0, 100)}: ${entry.launches} launches, ${entry.inside}/${entry.total} inside`);
  // The rule of agreement.mjs, each ncu run held out in turn (needs at least three runs).
  if (ncuRuns.length >= 3) {
    console.log(`\ndistinct kernels within ncu's spread (|value - mean| <= max - min of the other ${ncuRuns.length - 1} runs), each ncu run held out in turn:`);
    const turns = heldOutAgreement(ncuRuns, rows, metrics);
    for (const turn of turns) {
      console.log(`  run ${turn.heldOut} held out: the held-out ncu run agrees on ${turn.ncu.agreeing.length} of ${turn.ncu.judged}; kreplay on ${turn.kreplay.agreeing.length} of ${turn.kreplay.judged}`);
    }
    const last = turns.at(-1);
    for (const name of last.kreplay.agreeing) console.log(`    kreplay agrees (run ${last.heldOut} held out): ${name.slice(0, 110)}`);
  }
  // Which metrics keep kernels from agreeing, against all the runs by the same rule.
  const blocking = blockingMetrics(ncuRuns, kreplayValues(ncuRuns, rows), metrics);
  console.log(`\nagainst all ${ncuRuns.length} runs by the same rule, kreplay agrees on ${blocking.agreeing} of ${blocking.judged} kernels; what keeps the others from agreeing:`);
  console.log('| metric | launches outside | kernels kept from agreeing by it alone |');
  console.log('|---|---|---|');
  for (const metric of metrics) console.log(`| ${metric} | ${blocking.outside[metric]} | ${blocking.soleBlocker[metric]} |`);
  // How far off, per metric: kreplay against the mean of ncu's runs, beside ncu's own spread.
  console.log('\n| metric | median (kreplay - ncu) / ncu | median abs | median ncu run-to-run spread |');
  console.log('|---|---|---|---|');
  for (const metric of metrics) {
    const differences = [];
    const spreads = [];
    for (let index = 0; index < comparable; index += 1) {
      const values = ncuRuns.map((run) => run[index].metrics[metric]).filter(Number.isFinite);
      const value = rows[index].metrics?.[metric];
      if (values.length < ncuRuns.length || !Number.isFinite(value)) continue;
      const reference = mean(values);
      if (reference === 0) continue;
      differences.push((value - reference) / reference);
      spreads.push((Math.max(...values) - Math.min(...values)) / reference);
    }
    const percent = (value) => `${(100 * value).toFixed(2)}%`;
    console.log(`| ${metric} | ${percent(median(differences))} | ${percent(median(differences.map(Math.abs)))} | ${percent(median(spreads))} |`);
  }
  // A fixed cost per pass weighs less on longer kernels; a share of the duration does not.
  const offset = durationOffset(ncuRuns, rows);
  if (offset) {
    const at = (nanoseconds) => `${((100 * (offset.fixed + offset.share * nanoseconds)) / nanoseconds).toFixed(2)}% at ${(nanoseconds / 1000).toFixed(1)} us`;
    console.log(`\nduration (kreplay - ncu's mean), least squares over ${offset.launches} launches of ${(offset.shortest / 1000).toFixed(1)}-${(offset.longest / 1000).toFixed(1)} us: ${offset.fixed.toFixed(0)} ns + ${(100 * offset.share).toFixed(2)}% of the duration (${[offset.shortest, offset.longest].map(at).join(', ')})`);
  }
} else {
  console.log(`profile.json ${profile ? 'read' : 'missing'}; ncu runs ${ncuRuns.length}`);
}
