#!/usr/bin/env node
// The summary of graph-programs/run.sh (issue 41's acceptance) from the files it wrote: per program,
// the kernel nodes captured beside ncu's count of kernels, the replays' bit-exact counts (or each
// launch's reason), profiling's cost against ncu's with the per-metric differences, one result per
// graph launch against ncu's graph mode, and the collectives counted. Prints it and writes
// summary.txt and summary.json into the folder.
//   node summarize.mjs <out folder>
// METRICS (optional) names the metrics judged, comma-separated, or sol for the SpeedOfLight metrics;
// default: all of the node-mode profile's metrics.
// Exits 2 when the folder is not run.sh's (or METRICS names a metric not measured), 1 when a file a
// step should have written is missing or unreadable (each named, with the reason), else 0.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgedMetrics } from '../capture-acceptance/judged-metrics.mjs';
import { captureFacts, collectiveFacts, graphProfileFacts, nodeProfileFacts, programFacts, replayFacts } from './graph-summary.mjs';
import { NotARunFolderError, readRunFolder } from './run-folder.mjs';
import { programLines } from './summary-text.mjs';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: summarize.mjs <folder written by graph-programs/run.sh>');
  process.exit(2);
}

let run;
try {
  run = readRunFolder(folder);
} catch (error) {
  if (!(error instanceof NotARunFolderError)) throw error;
  console.error(`summarize.mjs: ${error.message}`);
  process.exit(2);
}

const summaries = [];
for (const { name, steps, files, missing } of run.programs) {
  const capture = captureFacts(files, run.timings, name);
  let metrics = [];
  if (files.profile) {
    try {
      metrics = judgedMetrics(process.env.METRICS, files.profile.metrics);
    } catch (error) {
      console.error(`summarize.mjs: ${name}: ${error.message}`);
      process.exit(2);
    }
  }
  summaries.push({
    name,
    steps,
    missing,
    program: programFacts(files, run.timings, name),
    capture,
    collectives: files.program?.collectives !== undefined || (capture?.notCaptured.collective ?? 0) > 0 ? collectiveFacts(capture, files.program) : null,
    replay: replayFacts(files.replay, run.timings[`${name}.replay`]),
    replayGraph: replayFacts(files['replay-graph'], run.timings[`${name}.replay-graph`]),
    nodeProfile: nodeProfileFacts(files.profile, files['ncu-node'] ?? [], metrics, run.timings, name, capture?.secondsOverProgram ?? null),
    graphProfile: graphProfileFacts(files['profile-graph'], files['ncu-graph'] ?? [], capture?.graphLaunches ?? null, run.timings, name),
  });
}

const lines = [`machine: ${run.machine.replace(/\n/g, '; ')}`, `total: ${run.timings.total?.seconds ?? 'n/a'} s`];
for (const skipped of run.skipped) lines.push(`skipped ${skipped}`);
for (const summary of summaries) lines.push('', ...programLines(summary));
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
writeFileSync(join(folder, 'summary.txt'), text);
writeFileSync(join(folder, 'summary.json'), `${JSON.stringify({ machine: run.machine, totalSeconds: run.timings.total?.seconds ?? null, skipped: run.skipped, programs: summaries }, null, 2)}\n`);
const missing = summaries.flatMap((summary) => summary.missing);
if (missing.length > 0) {
  console.error(`summarize.mjs: ${missing.length} expected file${missing.length === 1 ? ' is' : 's are'} missing or unreadable: ${missing.map((each) => each.file).join(', ')}`);
  process.exit(1);
}
