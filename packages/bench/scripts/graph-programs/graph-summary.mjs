// The facts of issue 41's acceptance for one program of graph-programs/run.sh, from the files
// run-folder.mjs read: what the capture took (kernel nodes, graph launches, what it left out and
// why), how the replays came out, what profiling the nodes cost against ncu and how their values
// compare, one result per graph launch against ncu's graph mode, and the collectives counted.
// Every time is a wall time run.sh measured in the same run; the program's own run is subtracted
// from each run of the program under ncu (its start-up, imports and compilation left out).
import { blockingMetrics, kreplayValues } from '../capture-acceptance/agreement.mjs';
import { mean, median, sameKernel } from '../capture-acceptance/ncu-csv.mjs';
import { capturedProcess } from './run-folder.mjs';

const duration = 'gpu__time_duration.sum';

/** A profile row of `--graph-profiling graph` that is a whole graph launch: `graph G, launch K (N nodes)`. */
export const graphRowName = /^graph \S+, launch \d+ \(\d+ nodes?\)$/;

/** The program alone, and whether its result under capture is the same (its checksum of the result's bits). */
export function programFacts(files, timings, name) {
  const alone = files.program ?? null;
  const captured = files.programUnderCapture ?? null;
  const checksum = alone?.outputChecksum ?? null;
  return {
    wallSeconds: timings[`${name}.program`]?.seconds ?? null,
    regionSeconds: alone?.regionSeconds ?? null,
    outputChecksum: checksum,
    checksumUnderCapture: captured?.outputChecksum ?? null,
    resultUnchanged: checksum === null || captured?.outputChecksum === undefined ? null : checksum === captured.outputChecksum,
  };
}

/** Kernel nodes per graph launch, from rows with `graph` (replay or profile rows of node mode), in graph-launch order. */
export function nodesPerGraphLaunch(rows) {
  const counts = new Map();
  for (const row of rows) if (row.graph) counts.set(row.graph.graphLaunch, (counts.get(row.graph.graphLaunch) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([graphLaunch, nodes]) => ({ graphLaunch, nodes }));
}

/** What the capture took: launches, of them kernel nodes (rows of the node-mode replay or profile that name a graph), graph launches, what it left out. */
export function captureFacts(files, timings, name) {
  const summary = capturedProcess(files.capture);
  if (!summary) return null;
  const rows = files.replay?.launches ?? files.profile?.dispatches ?? [];
  const kernelNodes = rows.filter((row) => row.graph).length;
  const program = timings[`${name}.program`]?.seconds;
  const wall = timings[`${name}.capture`];
  return {
    wallSeconds: wall?.seconds ?? null,
    exit: wall?.exit ?? null,
    secondsOverProgram: wall && program !== undefined ? wall.seconds - program : null,
    processes: files.capture.processes?.length ?? 1,
    launches: summary.launches,
    kernelNodes: rows.length === 0 ? null : kernelNodes,
    ordinaryLaunches: rows.length === 0 ? null : rows.length - kernelNodes,
    graphLaunches: summary.graphLaunches,
    nodesPerGraphLaunch: nodesPerGraphLaunch(rows),
    notCaptured: summary.notCaptured,
    sequences: summary.sequences,
    sequenceBreaks: summary.sequenceBreaks,
    complete: summary.complete,
    damaged: summary.damaged.length,
    kernels: summary.kernels.map((kernel) => kernel.function),
  };
}

/** Why a replayed launch did not reproduce: its error, decline, nondeterminism, or the pages that differ. */
function reason(row) {
  if (row.error) return row.error;
  if (row.declineReason) return `declined: ${row.declineReason}`;
  if (row.nondeterministic) return 'passes differ from each other (nondeterministic)';
  if (row.postLaunch && !row.postLaunch.reproduced) return `memory after differs from the program's in ${row.postLaunch.pagesMismatched} of ${row.postLaunch.pagesCompared} pages`;
  return row.notes?.join('; ') || `verification ${row.verification}`;
}

/** A `kreplay replay --capture --verify full --json` report: counts, and each launch that did not reproduce with its reason. */
export function replayFacts(report, timing) {
  if (!report) return null;
  const launches = report.launches;
  return {
    graphProfiling: report.graphProfiling,
    wallSeconds: timing?.seconds ?? null,
    launches: launches.length,
    kernelNodes: launches.filter((row) => row.graph).length,
    graphRanges: report.ranges.filter((range) => range.graph).length,
    reproduced: report.reproduced,
    mismatched: report.mismatched.length,
    failed: report.failed.length,
    declined: report.declined.length,
    damaged: report.damaged.length,
    notReproduced: launches.filter((row) => row.outcome !== 'reproduced').map((row) => ({ sequence: row.sequence, function: row.function, outcome: row.outcome, reason: reason(row) })),
  };
}

/** ncu's cost on the program: each run's wall time less the program's alone. */
function ncuCosts(timings, name, step) {
  const program = timings[`${name}.program`]?.seconds ?? Number.NaN;
  return Object.entries(timings)
    .filter(([label]) => label.startsWith(`${name}.${step}-`))
    .map(([, timing]) => timing.seconds - program);
}

/** Whether every ncu run names, at `index`, the kernel `row` ran. */
const matches = (ncuRuns, rows, index) => ncuRuns.every((run) => run[index] && sameKernel(run[index].name, rows[index]?.kernel ?? ''));

/**
 * Node mode against `ncu --graph-profiling node`: kernels counted by each, the cost of each (ncu's
 * beyond the program alone) and the speedup, and per judged metric the median of
 * (kreplay - ncu's mean) / ncu's mean over the launches both name alike; with two ncu runs or more,
 * ncu's own spread and the kernels agreeing by agreement.mjs's rule.
 */
export function nodeProfileFacts(profile, ncuRuns, metrics, timings, name, captureSeconds) {
  if (!profile) return null;
  const rows = profile.dispatches;
  const wall = timings[`${name}.profile`]?.seconds ?? null;
  const costs = ncuCosts(timings, name, 'ncu-node');
  const ncu = costs.length === 0 ? null : mean(costs);
  const facts = {
    wallSeconds: wall,
    launches: rows.length,
    measured: rows.filter((row) => row.metrics).length,
    kernelNodes: rows.filter((row) => row.graph).length,
    ncuRuns: ncuRuns.length,
    ncuKernels: ncuRuns.map((run) => run.length),
    ncuSecondsBeyondProgram: costs,
    speedup: ncu !== null && wall ? ncu / wall : null,
    speedupWithCapture: ncu !== null && wall && captureSeconds !== null ? ncu / (wall + captureSeconds) : null,
    compared: 0,
    metrics: {},
  };
  if (ncuRuns.length === 0) return facts;
  const comparable = Math.min(rows.length, ...ncuRuns.map((run) => run.length));
  const indices = Array.from({ length: comparable }, (_, index) => index).filter((index) => matches(ncuRuns, rows, index));
  facts.compared = indices.length;
  for (const metric of metrics) {
    const differences = [];
    const spreads = [];
    for (const index of indices) {
      const values = ncuRuns.map((run) => run[index].metrics[metric]);
      const value = rows[index].metrics?.[metric];
      if (!values.every(Number.isFinite) || !Number.isFinite(value)) continue;
      const reference = mean(values);
      if (reference === 0) continue;
      differences.push((value - reference) / reference);
      spreads.push((Math.max(...values) - Math.min(...values)) / reference);
    }
    facts.metrics[metric] = {
      launches: differences.length,
      medianDifference: differences.length ? median(differences) : null,
      medianAbsoluteDifference: differences.length ? median(differences.map(Math.abs)) : null,
      medianNcuSpread: ncuRuns.length >= 2 && spreads.length ? median(spreads) : null,
    };
  }
  if (ncuRuns.length >= 2) {
    const blocking = blockingMetrics(ncuRuns, kreplayValues(ncuRuns, rows), metrics);
    facts.agreement = { agreeingKernels: blocking.agreeing, judgedKernels: blocking.judged, launchesOutside: blocking.outside };
  }
  return facts;
}

/**
 * Graph mode: kreplay's rows that are whole graph launches, against ncu's `--graph-profiling graph`
 * results. ncu's results are in launch order and include any kernel launched outside a graph; when
 * ncu has as many results as kreplay has rows, the results at the graph rows' places are the
 * graphs'; when it has as many as kreplay has graph rows, they are taken in order; else the
 * launches are not paired and only the medians are given.
 */
export function graphProfileFacts(profile, ncuRuns, capturedGraphLaunches, timings, name) {
  if (!profile) return null;
  const rows = profile.dispatches;
  const graphIndices = rows.map((row, index) => (graphRowName.test(row.kernel ?? '') ? index : -1)).filter((index) => index >= 0);
  const ncu = ncuRuns[0] ?? [];
  const ncuGraphs = ncu.length === rows.length ? graphIndices.map((index) => ncu[index]) : ncu.length === graphIndices.length ? ncu : null;
  const kreplayDurations = graphIndices.map((index) => rows[index].metrics?.[duration] ?? null);
  const perLaunch = ncuGraphs === null ? [] : graphIndices.map((index, position) => {
    const kreplay = rows[index].metrics?.[duration] ?? null;
    const reference = ncuGraphs[position].metrics[duration] ?? null;
    return { name: rows[index].kernel, kreplayNs: kreplay, ncuNs: reference, ratio: kreplay !== null && reference ? kreplay / reference : null };
  });
  const ratios = perLaunch.map((launch) => launch.ratio).filter(Number.isFinite);
  const finite = (values) => values.filter(Number.isFinite);
  return {
    wallSeconds: timings[`${name}.profile-graph`]?.seconds ?? null,
    measure: profile.measure,
    rows: rows.length,
    graphResults: graphIndices.length,
    capturedGraphLaunches,
    ncuResults: ncu.length,
    ncuSecondsBeyondProgram: ncuCosts(timings, name, 'ncu-graph'),
    paired: ncuGraphs !== null,
    perLaunch,
    medianRatio: ratios.length ? median(ratios) : null,
    medianKreplayNs: finite(kreplayDurations).length ? median(finite(kreplayDurations)) : null,
    medianNcuNs: ncu.length ? median(finite((ncuGraphs ?? ncu).map((result) => result.metrics[duration]))) : null,
  };
}

/** What the capture did with collectives: the count of `collective`, and the kernels of NCCL's library it captured as ordinary launches. */
export function collectiveFacts(capture, program) {
  if (!capture) return null;
  return {
    collective: capture.notCaptured.collective ?? 0,
    ncclKernelsCaptured: capture.kernels.filter((kernel) => /nccl|oneRankReduce/i.test(kernel)),
    collectivesRun: program?.collectives ?? null,
  };
}
