#!/usr/bin/env node
// The table of large-footprint-vs-ncu.sh from the files it wrote: first and later dispatches of
// kreplay and of ncu, their ratios, and the agreement of the DRAM throughput both tools measured.
//   node summarize-large-footprint.mjs <out folder>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: summarize-large-footprint.mjs <folder written by large-footprint-vs-ncu.sh>');
  process.exit(2);
}
const timings = new Map();
for (const line of readFileSync(join(folder, 'timings.txt'), 'utf8').trim().split('\n')) {
  const [label, secondsText, count] = line.split(' ');
  timings.set(`${label}-${count}`, Number(secondsText));
}
const program = timings.get('program-1');
const ncuOne = timings.get('ncu-1');
const ncuMany = [...timings.keys()].filter((key) => key.startsWith('ncu-') && key !== 'ncu-1');
const manyCount = ncuMany.length ? Number(ncuMany[0].slice(4)) : 1;
const ncuFirst = ncuOne - program;
const ncuLater = ncuMany.length ? (timings.get(ncuMany[0]) - ncuOne) / (manyCount - 1) : Number.NaN;

const profile = JSON.parse(readFileSync(join(folder, 'kreplay-profile.json'), 'utf8'));
const walls = profile.dispatches.map((dispatch) => dispatch.wallMs / 1000);
const first = walls[0];
const later = walls.slice(1);
const mean = later.reduce((sum, value) => sum + value, 0) / later.length;

const dram = 'dram__throughput.avg.pct_of_peak_sustained_elapsed';
const kreplayDram = profile.dispatches.map((dispatch) => dispatch.metrics?.[dram]).filter((value) => typeof value === 'number');
const ncuDram = [];
try {
  const lines = readFileSync(join(folder, `ncu-${manyCount}.csv`), 'utf8').split('\n').filter((line) => line.startsWith('"'));
  const header = lines[0].split('","').map((cell) => cell.replace(/"/g, ''));
  const column = header.indexOf(dram);
  for (const line of lines.slice(2)) {
    const value = Number(line.split('","')[column]?.replace(/"/g, '').replace(/,/g, ''));
    if (Number.isFinite(value)) ncuDram.push(value);
  }
} catch (error) {
  ncuDram.push(`unreadable: ${error.message}`);
}
const range = (values) => (values.length ? `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}` : 'none');
const fixed = (value) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
console.log(`machine: ${readFileSync(join(folder, 'machine.txt'), 'utf8').trim().replace(/\n/g, '; ')}`);
console.log('| | first dispatch (s) | each later dispatch (s) |');
console.log('|---|---|---|');
console.log(`| kreplay | ${fixed(first)} | ${later.map(fixed).join(', ')} (mean ${fixed(mean)}) |`);
console.log(`| ncu kernel replay | ${fixed(ncuFirst)} | ${fixed(ncuLater)} |`);
console.log(`| ncu / kreplay | ${fixed(ncuFirst / first)}x | ${fixed(ncuLater / mean)}x |`);
console.log(`goals: first <= 1/5 of ncu's first: ${first <= ncuFirst / 5 ? 'met' : 'not met'}; later >= 100x faster: ${ncuLater / mean >= 100 ? 'met' : 'not met'}`);
console.log(`${dram}: kreplay ${range(kreplayDram)}, ncu ${typeof ncuDram[0] === 'string' ? ncuDram[0] : range(ncuDram)}`);
if (profile.dispatches[0]?.staging) console.log(`first dispatch staging: ${JSON.stringify(profile.dispatches[0].staging)}`);
