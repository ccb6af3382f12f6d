// The summary of graph-programs/run.sh for people: the lines of one program's facts
// (graph-summary.mjs), in the order the acceptance of issue 41 asks its questions.

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const percent = (value) => (Number.isFinite(value) ? `${(100 * value).toFixed(2)}%` : 'n/a');
/** A launch's name shortened to `length` characters of its function, a graph node's ` [graph G node N, launch K]` kept whole. */
export function shortName(name, length = 100) {
  const at = name.lastIndexOf(' [graph ');
  const [function_, suffix] = at < 0 ? [name, ''] : [name.slice(0, at), name.slice(at)];
  return `${function_.length > length ? `${function_.slice(0, length)}...` : function_}${suffix}`;
}
const counts = (record) => (Object.keys(record ?? {}).length === 0 ? 'nothing' : Object.entries(record).map(([reason, count]) => `${reason} ${count}`).join(', '));

function captureLines(capture, program) {
  if (!capture) return ['capture: no capture report'];
  const result = program.resultUnchanged === null ? 'not compared' : program.resultUnchanged ? 'the same' : `DIFFERENT (${program.outputChecksum} alone, ${program.checksumUnderCapture} under capture)`;
  const nodes = capture.graphLaunches
    ? `${capture.kernelNodes ?? 'n/a'} kernel nodes of ${capture.graphLaunches} graph launch${capture.graphLaunches === 1 ? '' : 'es'} (${capture.nodesPerGraphLaunch.map((launch) => launch.nodes).join(', ') || 'n/a'} nodes each), `
    : `no graph launch (graphLaunches ${capture.graphLaunches ?? 'not recorded'}), `;
  return [
    `capture: ${fixed(capture.wallSeconds)} s wall (exit ${capture.exit ?? 'n/a'}), +${fixed(capture.secondsOverProgram)} s over the program alone; ${capture.launches} launches: ` +
      `${nodes}${capture.ordinaryLaunches ?? 'n/a'} ordinary launches`,
    `  not captured: ${counts(capture.notCaptured)}; ${capture.sequences ?? 'n/a'} captured sequences (started anew: ${counts(capture.sequenceBreaks)})${capture.processes > 1 ? `; ${capture.processes} processes captured, the one with the most launches summarized` : ''}`,
    `  the program's result under capture: ${result}${capture.complete ? '' : '; the capture did not finish'}${capture.damaged ? `; ${capture.damaged} damaged records` : ''}`,
  ];
}

function replayLines(label, replay) {
  if (!replay) return [`${label}: no report`];
  const lines = [
    `${label}: ${replay.reproduced}/${replay.launches} launches reproduce the program bit-exactly (${replay.kernelNodes} kernel nodes${replay.graphProfiling === 'graph' ? `, ${replay.graphRanges} graph launch${replay.graphRanges === 1 ? '' : 'es'} replayed as one graph each` : ''}); ` +
      `mismatched ${replay.mismatched}, failed ${replay.failed}, declined ${replay.declined}, damaged ${replay.damaged}; ${fixed(replay.wallSeconds)} s wall`,
  ];
  for (const row of replay.notReproduced.slice(0, 10)) lines.push(`  #${row.sequence} ${shortName(row.function)}: ${row.outcome}: ${row.reason.slice(0, 300)}`);
  if (replay.notReproduced.length > 10) lines.push(`  ... and ${replay.notReproduced.length - 10} more (summary.json lists them all)`);
  return lines;
}

function nodeProfileLines(profile) {
  if (!profile) return ['profile (node mode): no report'];
  const lines = [
    `ncu --graph-profiling node: ${profile.ncuRuns} runs, kernels per run ${profile.ncuKernels.join(', ') || 'none'}; kreplay profile: ${profile.launches} launches (${profile.kernelNodes} kernel nodes), ${profile.measured} measured`,
    `profile (node mode): ${fixed(profile.wallSeconds)} s wall; ncu ${profile.ncuSecondsBeyondProgram.map((cost) => fixed(cost)).join(', ') || 'n/a'} s beyond the program alone; ` +
      `ncu/kreplay ${fixed(profile.speedup, 1)}x, with the capture's cost ${fixed(profile.speedupWithCapture, 1)}x${profile.kernelNodes < 100 ? ` (on ${profile.kernelNodes} nodes: the acceptance asks 10x on 100 or more)` : ''}`,
    `against ncu, launch for launch (${profile.compared} launches named alike in every run):`,
    '| metric | launches | median (kreplay - ncu) / ncu | median abs | median ncu run-to-run spread |',
    '|---|---|---|---|---|',
  ];
  for (const [metric, values] of Object.entries(profile.metrics)) {
    lines.push(`| ${metric} | ${values.launches} | ${percent(values.medianDifference)} | ${percent(values.medianAbsoluteDifference)} | ${values.medianNcuSpread === null ? 'one ncu run' : percent(values.medianNcuSpread)} |`);
  }
  if (profile.agreement) {
    lines.push(`kernels with every metric of every launch within ncu's spread (agreement.mjs): ${profile.agreement.agreeingKernels} of ${profile.agreement.judgedKernels}`);
  }
  return lines;
}

function graphProfileLines(graph) {
  if (!graph) return ['profile --graph-profiling graph: no report'];
  const lines = [
    `profile --graph-profiling graph (measure ${graph.measure}): ${graph.graphResults} results for graph launches (of ${graph.rows} rows) for ${graph.capturedGraphLaunches ?? 'n/a'} captured graph launches; ` +
      `ncu --graph-profiling graph: ${graph.ncuResults} results; ${fixed(graph.wallSeconds)} s wall against ncu's ${graph.ncuSecondsBeyondProgram.map((cost) => fixed(cost)).join(', ') || 'n/a'} s beyond the program`,
  ];
  if (!graph.paired) {
    lines.push(`  not paired launch for launch (ncu's results are neither kreplay's rows nor its graph rows in number); median duration kreplay ${fixed(graph.medianKreplayNs, 0)} ns, ncu ${fixed(graph.medianNcuNs, 0)} ns`);
    return lines;
  }
  for (const launch of graph.perLaunch) lines.push(`  ${launch.name}: kreplay ${fixed(launch.kreplayNs, 0)} ns, ncu ${fixed(launch.ncuNs, 0)} ns, ratio ${fixed(launch.ratio, 3)}`);
  lines.push(`  median duration ratio kreplay/ncu: ${fixed(graph.medianRatio, 3)}`);
  return lines;
}

function collectiveLines(collectives) {
  if (!collectives) return [];
  const ran = collectives.collectivesRun ? ` (the program ran ${counts(collectives.collectivesRun)})` : '';
  return [
    `collectives: ${collectives.collective} kernels counted as collective, not recorded${ran}; NCCL's kernels captured as ordinary launches: ${collectives.ncclKernelsCaptured.length === 0 ? 'none' : collectives.ncclKernelsCaptured.map((kernel) => kernel.slice(0, 80)).join(', ')}`,
  ];
}

/** The lines of one program's summary. */
export function programLines(summary) {
  const { program } = summary;
  return [
    `## ${summary.name}`,
    `program alone: ${fixed(program.wallSeconds)} s wall, its measured region ${fixed(program.regionSeconds * 1000, 1)} ms`,
    ...captureLines(summary.capture, program),
    ...collectiveLines(summary.collectives),
    ...(summary.steps.includes('replay') ? replayLines('replay --verify full', summary.replay) : []),
    ...(summary.steps.includes('replay-graph') ? replayLines('replay --verify full --graph-profiling graph', summary.replayGraph) : []),
    ...(summary.steps.includes('profile') ? nodeProfileLines(summary.nodeProfile) : []),
    ...(summary.steps.includes('profile-graph') ? graphProfileLines(summary.graphProfile) : []),
    ...summary.missing.map((missing) => `MISSING ${missing.file}: ${missing.reason}`),
  ];
}
