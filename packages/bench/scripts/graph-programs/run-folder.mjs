// Reading a folder that graph-programs/run.sh wrote: the machine, the timings, the steps skipped
// for the budget, and per program the files of the steps its steps.txt names, each parsed, with
// every expected file that is missing or unreadable named with the likely reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ncuRunFiles, parseNcu } from '../capture-acceptance/ncu-csv.mjs';
import { readTimings } from '../real-programs/summary-costs.mjs';

/** A folder that is not run.sh's: summarize.mjs exits 2 with its message. */
export class NotARunFolderError extends Error {}

/** The JSON objects of a file: the whole text, else each line that parses (kreplay capture passes the program's stdout through before its own line). */
export function jsonLines(text) {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    return trimmed.split('\n').flatMap((line) => {
      try {
        const value = JSON.parse(line);
        return typeof value === 'object' && value !== null ? [value] : [];
      } catch {
        return [];
      }
    });
  }
}

const readText = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** The step files of each step name; `{ncu}` steps are read as runs of CSV files. */
const stepFiles = {
  program: 'program.json',
  capture: 'capture.json',
  replay: 'replay.json',
  'replay-graph': 'replay-graph.json',
  profile: 'profile.json',
  'profile-graph': 'profile-graph.json',
};

/**
 * The capture summary of a `kreplay capture --json` report: `capture` when one process captured,
 * else the process that captured the most launches (a program's helper processes capture nothing
 * but may leave a folder), or null.
 */
export function capturedProcess(report) {
  if (!report) return null;
  if (report.capture) return report.capture;
  const processes = [...(report.processes ?? [])].sort((a, b) => b.launches - a.launches);
  return processes[0] ?? null;
}

/** `name.step-N` labels of timings.txt and skipped.txt belonging to a step. */
const labelsOf = (name, step) => new RegExp(`^${name}\\.${step}(-\\d+)?$`);

/** Why a step's file is missing: skipped for the budget, its exit status (124: STEP_TIMEOUT), or not written. */
function missingReason(name, step, timings, skipped) {
  const pattern = labelsOf(name, step);
  const skip = skipped.find((line) => pattern.test(line.split(' ')[0]));
  if (skip) return `skipped: ${skip.slice(skip.indexOf(' ') + 1)}`;
  const timed = Object.entries(timings).find(([label]) => pattern.test(label));
  if (!timed) return 'the step did not run';
  const [, { exit, seconds }] = timed;
  if (exit === 124) return `timed out (STEP_TIMEOUT) after ${seconds.toFixed(0)} s`;
  return `the step exited ${exit} after ${seconds.toFixed(1)} s (see its .log)`;
}

/** One program's folder: its steps and parsed files, and what is missing. */
function readProgram(folder, name, timings, skipped) {
  const dir = join(folder, name);
  const steps = readFileSync(join(dir, 'steps.txt'), 'utf8').trim().split(/\s+/);
  const files = {};
  const missing = [];
  for (const step of steps) {
    if (step === 'warm') continue;
    if (step === 'ncu-node' || step === 'ncu-graph') {
      const runs = ncuRunFiles(dir, step).map((file) => parseNcu(readFileSync(join(dir, file), 'utf8')));
      if (runs.length === 0 || runs.some((run) => run.length === 0)) missing.push({ file: `${name}/${step}-N.csv`, reason: runs.length === 0 ? missingReason(name, step, timings, skipped) : 'a run holds no kernel' });
      files[step] = runs.filter((run) => run.length > 0);
      continue;
    }
    const file = stepFiles[step];
    if (file === undefined) throw new NotARunFolderError(`${name}/steps.txt names a step "${step}" that summarize.mjs does not know; it knows warm, ${Object.keys(stepFiles).join(', ')}, ncu-node, ncu-graph.`);
    const objects = jsonLines(readText(join(dir, file)) ?? '');
    // capture.json: the program's own line first, kreplay's report last.
    const report = objects.at(-1) ?? null;
    const usable = step === 'capture' ? capturedProcess(report) : report;
    if (!usable) missing.push({ file: `${name}/${file}`, reason: missingReason(name, step, timings, skipped) });
    files[step] = usable === null ? null : report;
    if (step === 'capture') files.programUnderCapture = objects.length >= 2 ? objects[0] : null;
  }
  return { name, steps, files, missing };
}

/**
 * The run folder: `machine`, `timings` (readTimings), `skipped` (lines of skipped.txt) and each
 * program (a folder with steps.txt) as { name, steps, files, missing }.
 * @throws {NotARunFolderError} when the folder has no timings.txt or no program folder.
 */
export function readRunFolder(folder) {
  const timingsText = readText(join(folder, 'timings.txt'));
  if (timingsText === null) throw new NotARunFolderError(`${folder} has no timings.txt: it is not a folder written by graph-programs/run.sh. Pass the OUT folder of run.sh.`);
  const timings = readTimings(timingsText);
  const skipped = (readText(join(folder, 'skipped.txt')) ?? '').split('\n').filter(Boolean);
  const names = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, 'steps.txt')))
    .map((entry) => entry.name)
    .sort();
  if (names.length === 0) throw new NotARunFolderError(`${folder} holds no program folder with a steps.txt: run.sh ran no program there. Pass the OUT folder of run.sh.`);
  return {
    machine: (readText(join(folder, 'machine.txt')) ?? 'machine.txt missing').trim(),
    timings,
    skipped,
    programs: names.map((name) => readProgram(folder, name, timings, skipped)),
  };
}
