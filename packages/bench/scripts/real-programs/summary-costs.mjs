// The arithmetic of real-programs/summarize.mjs, apart so that it is tested (summary-costs.test.mjs).
// Every figure is a difference or ratio of wall times that run.sh measured in one run; the
// program's own run is subtracted from every run of the program (under capture, under ncu), so the
// program's start-up (Python, imports, model set-up) is left out of both sides.

/** `label seconds exit=N` lines of timings.txt -> { label: { seconds, exit } }. */
export function readTimings(text) {
  const timings = {};
  for (const line of text.trim().split('\n')) {
    const match = /^(\S+) ([\d.]+)(?: exit=(\d+))?$/.exec(line.trim());
    if (match) timings[match[1]] = { seconds: Number(match[2]), exit: match[3] === undefined ? 0 : Number(match[3]) };
  }
  return timings;
}

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ms = (seconds) => `${fixed(seconds * 1000, 1)} ms`;

/** The capture summary of a `kreplay capture --json` report (one process), or null. */
export function captureSummary(report) {
  if (!report) return null;
  return report.capture ?? report.processes?.[0] ?? null;
}

/** Launches a profile report profiled (rows with metrics), and all its rows. */
function profiledLaunches(profile) {
  const rows = profile?.dispatches ?? [];
  return { all: rows.length, measured: rows.filter((row) => row.metrics !== null && row.metrics !== undefined).length };
}

/**
 * The cost lines of one program: capture against the program alone, each profile against ncu's
 * runs, end to end. `files`: { program, capture, replay, profiles: { profile, 'profile-range-K' } }.
 */
export function costRows(name, timings, files) {
  const lines = [];
  const program = timings[`${name}.program`]?.seconds;
  const step = files.program?.capturedStepSeconds;
  lines.push(`program alone: ${fixed(program)} s wall, its measured region ${ms(step)}`);
  const summary = captureSummary(files.capture);
  const launches = summary?.launches ?? summary?.capturedLaunches ?? null;
  const captureWall = timings[`${name}.capture`];
  const added = captureWall ? captureWall.seconds - program : NaN;
  if (captureWall) {
    lines.push(
      `capture: ${fixed(captureWall.seconds)} s wall (exit ${captureWall.exit}), +${fixed(added)} s over the program alone = ${fixed(added / program)}x its wall time; ` +
        `${launches ?? 'n/a'} launches, ${ms(added / (launches ?? NaN))} a launch`,
    );
  }
  if (summary?.cost) {
    const cost = summary.cost;
    lines.push(
      `  capture's own account: ${fixed(cost.wallSeconds)} s, the program waited ${fixed(cost.programWaitSeconds)} s; ` +
        `${fixed(cost.deviceBytesHashed / 2 ** 30)} GiB hashed on the device, ${fixed(cost.bytesCopiedToHost / 2 ** 20, 1)} MiB copied to the host, ` +
        `${fixed(cost.bytesStored / 2 ** 20, 1)} MiB stored in ${cost.blobsStored} blobs; ${summary.sequences ?? 'n/a'} captured sequences`,
    );
  }
  if (files.replay) {
    const replay = files.replay;
    lines.push(`replay --verify full: ${replay.reproduced}/${replay.launches?.length ?? 'n/a'} reproduced${replay.mismatched?.length ? `, ${replay.mismatched.length} mismatched` : ''}${replay.failed?.length ? `, ${replay.failed.length} failed` : ''}`);
  }
  const ncuCosts = Object.entries(timings)
    .filter(([label]) => label.startsWith(`${name}.ncu-`))
    .map(([, timing]) => timing.seconds - program);
  const ncu = ncuCosts.length === 0 ? NaN : ncuCosts.reduce((sum, value) => sum + value, 0) / ncuCosts.length;
  lines.push(`ncu on the program: ${ncuCosts.length} runs, ${ncuCosts.map((cost) => fixed(cost)).join(', ')} s beyond the program alone (mean ${fixed(ncu)} s, ${ms(ncu / (launches ?? NaN))} a launch)`);
  for (const [label, profile] of Object.entries(files.profiles).sort()) {
    const wall = timings[`${name}.${label}`];
    if (!wall) continue;
    const { all, measured } = profiledLaunches(profile);
    const ranges = profile?.ranges?.length ?? 0;
    lines.push(
      `${label}: ${fixed(wall.seconds)} s wall (exit ${wall.exit}), ${measured}/${all} launches measured in ${ranges} ranges, ${ms(wall.seconds / all)} a launch; ` +
        `ncu/kreplay ${fixed(ncu / wall.seconds, 1)}x; end to end with the capture ${fixed(ncu / (added + wall.seconds), 1)}x`,
    );
  }
  return lines;
}

/** dd's `... copied, 1.2 s, 1.8 GB/s` -> `1.8 GB/s`, or `n/a`. */
export function diskRate(text) {
  const match = /copied, [\d.]+ s, ([\d.]+ [kMGT]?B\/s)/.exec(text);
  return match ? match[1] : 'n/a';
}

/**
 * The capture cost at each footprint. `captures`: { '<gib>-<launches>': { capture, program } } from
 * capture-<gib>-<launches>.json and program-<gib>-<launches>.json. With two launch counts at a
 * footprint, the cost a launch after the first is the difference of their added times over the
 * difference of their launches (the first launch stores the whole footprint).
 */
export function footprintRows(timings, captures, diskText) {
  const lines = [`the disk writes ${diskRate(diskText)} (dd, 2 GiB, fdatasync)`];
  const byFootprint = new Map();
  for (const key of Object.keys(captures)) {
    const [gib, launches] = key.split('-');
    const program = timings[`footprint-${key}.program`]?.seconds;
    const capture = timings[`footprint-${key}.capture`];
    const summary = captureSummary(captures[key].capture);
    const output = captures[key].program;
    const run = { launches: Number(launches), added: capture ? capture.seconds - program : NaN, exit: capture?.exit, summary, output };
    byFootprint.set(gib, [...(byFootprint.get(gib) ?? []), run].sort((a, b) => a.launches - b.launches));
  }
  for (const gib of [...byFootprint.keys()].sort((a, b) => Number(a) - Number(b))) {
    const runs = byFootprint.get(gib);
    for (const run of runs) {
      const cost = run.summary?.cost;
      const stored = cost ? `${fixed(cost.bytesStored / 2 ** 20, 1)} MiB stored, ${fixed(cost.bytesCopiedToHost / 2 ** 20, 1)} MiB copied, the program waited ${fixed(cost.programWaitSeconds)} s` : 'no cost recorded';
      lines.push(`${gib} GiB, ${run.launches} launches: +${fixed(run.added)} s (exit ${run.exit ?? 'n/a'}); ${stored}; ${run.output?.pagesWrittenPerLaunch ?? 'n/a'} of ${run.output?.pages ?? 'n/a'} pages written a launch`);
    }
    if (runs.length >= 2) {
      const [first, last] = [runs[0], runs.at(-1)];
      lines.push(`${gib} GiB: ${ms((last.added - first.added) / (last.launches - first.launches))} a launch after the first`);
    }
  }
  return lines;
}
