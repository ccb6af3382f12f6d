#!/usr/bin/env node
// The summary of real-programs/run.sh from the files it wrote: per program, what capture cost
// against the program alone, what profiling the captured launches cost against ncu on the same
// launches (the program's own start-up left out of both: ncu's cost is its run less the program's
// run), end to end, and against range length; then capture's cost against footprint with the disk's
// write rate. Agreement with ncu is capture-acceptance/summarize.mjs's, run per profile.
//   node summarize.mjs <out folder>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { costRows, footprintRows, readTimings } from './summary-costs.mjs';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: summarize.mjs <folder written by real-programs/run.sh>');
  process.exit(2);
}
const timings = readTimings(existsSync(join(folder, 'timings.txt')) ? readFileSync(join(folder, 'timings.txt'), 'utf8') : '');
/** A JSON file, or its last line when the program's own output came first (kreplay capture passes stdout through); null when absent or not JSON. */
const json = (path) => {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8').trim();
  for (const candidate of [text, text.split('\n').at(-1), text.split('\n')[0]]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // the next candidate
    }
  }
  return null;
};
if (existsSync(join(folder, 'machine.txt'))) console.log(`machine: ${readFileSync(join(folder, 'machine.txt'), 'utf8').trim().replace(/\n/g, '; ')}`);

const programs = readdirSync(folder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'footprint' && existsSync(join(folder, entry.name, 'program.json')))
  .map((entry) => entry.name);
for (const name of programs) {
  const dir = join(folder, name);
  const profiles = readdirSync(dir).filter((file) => /^profile(-range-\d+)?\.json$/.test(file));
  const files = {
    program: json(join(dir, 'program.json')),
    capture: json(join(dir, 'capture.json')),
    replay: json(join(dir, 'replay.json')),
    profiles: Object.fromEntries(profiles.map((file) => [file.replace(/\.json$/, ''), json(join(dir, file))])),
  };
  console.log(`\n## ${name}`);
  for (const line of costRows(name, timings, files)) console.log(line);
}
if (existsSync(join(folder, 'footprint'))) {
  const dir = join(folder, 'footprint');
  const disk = existsSync(join(dir, 'disk-write.txt')) ? readFileSync(join(dir, 'disk-write.txt'), 'utf8') : '';
  const captures = Object.fromEntries(
    readdirSync(dir)
      .filter((file) => /^capture-[\d.]+-\d+\.json$/.test(file))
      .map((file) => [file.slice('capture-'.length, -'.json'.length), { capture: json(join(dir, file)), program: json(join(dir, `program-${file.slice('capture-'.length)}`)) }]),
  );
  console.log('\n## capture cost against footprint');
  for (const line of footprintRows(timings, captures, disk)) console.log(line);
}
