// Agreement with ncu "within its own run-to-run spread", judged by a rule that ncu's own runs are
// held to as well: a value agrees with some ncu runs of the same launch when it lies no further
// from their mean than their range (largest minus smallest). A distinct kernel (ncu's demangled
// name) agrees when every metric of every one of its launches does. Holding each ncu run out in
// turn and judging it against the others says how often ncu itself agrees by the rule; kreplay is
// judged against the same runs.
import { mean, sameKernel } from './ncu-csv.mjs';

/** Whether `value` lies within the spread of `references` (values of one launch and metric). */
export function withinSpread(value, references) {
  return Math.abs(value - mean(references)) <= Math.max(...references) - Math.min(...references);
}

/**
 * Launch by launch against `references` (ncu runs, parseNcu), the rule of withinSpread:
 * `candidate(index)` the metrics of launch `index` being judged (or null when that launch is not
 * comparable). Returns each judged kernel (ncu's name) with the metrics any of its launches fails,
 * and per metric how many launches lie outside.
 */
function judgeLaunches(references, candidate, metrics) {
  const failing = new Map();
  const outside = Object.fromEntries(metrics.map((metric) => [metric, 0]));
  const launches = Math.min(...references.map((run) => run.length));
  for (let index = 0; index < launches; index += 1) {
    const name = references[0][index].name;
    if (!references.every((run) => run[index].name === name)) continue;
    const values = candidate(index);
    if (values === null) continue;
    const failed = failing.get(name) ?? new Set();
    for (const metric of metrics) {
      const those = references.map((run) => run[index].metrics[metric]);
      const value = values[metric];
      // Where ncu measured and the candidate did not (a launch kreplay failed to profile), it is outside.
      if (!those.every(Number.isFinite) || (Number.isFinite(value) && withinSpread(value, those))) continue;
      outside[metric] += 1;
      failed.add(metric);
    }
    failing.set(name, failed);
  }
  return { failing, outside };
}

/**
 * The distinct kernels of which every launch agrees on every metric: `references` are ncu runs
 * (parseNcu), `candidate(index)` the metrics of launch `index` being judged (or null when that
 * launch is not comparable). Returns the agreeing names and how many kernels were judged.
 */
export function agreeingKernels(references, candidate, metrics) {
  const { failing } = judgeLaunches(references, candidate, metrics);
  return { agreeing: [...failing].filter(([, failed]) => failed.size === 0).map(([name]) => name), judged: failing.size };
}

/**
 * The candidate of agreeingKernels for kreplay's launches (`rows`, with `kernel` and `metrics`): a
 * launch's metrics (none where kreplay collected none: every metric outside), or null where its
 * kernel is not the one ncu measured at that index.
 */
export function kreplayValues(ncuRuns, rows) {
  return (index) => {
    const row = rows[index];
    return row && sameKernel(ncuRuns[0][index].name, row.kernel ?? '') ? (row.metrics ?? {}) : null;
  };
}

/**
 * Each ncu run held out in turn: how many kernels it agrees on against the other runs, and how
 * many kreplay's launches (`rows`, with `kernel` and `metrics`) agree on against the same runs.
 */
export function heldOutAgreement(ncuRuns, rows, metrics) {
  const kreplay = kreplayValues(ncuRuns, rows);
  return ncuRuns.map((heldOut, held) => {
    const others = ncuRuns.filter((_, run) => run !== held);
    return {
      heldOut: held + 1,
      ncu: agreeingKernels(others, (index) => heldOut[index]?.metrics ?? null, metrics),
      kreplay: agreeingKernels(others, kreplay, metrics),
    };
  });
}

/**
 * What keeps kernels from agreeing with all of `references` (ncu runs; the rule of withinSpread):
 * per metric, how many launches lie outside, and how many distinct kernels would agree but for
 * that metric alone. `candidate(index)` as for agreeingKernels.
 */
export function blockingMetrics(references, candidate, metrics) {
  const { failing, outside } = judgeLaunches(references, candidate, metrics);
  const soleBlocker = Object.fromEntries(metrics.map((metric) => [metric, 0]));
  for (const failed of failing.values()) if (failed.size === 1) soleBlocker[[...failed][0]] += 1;
  const agreeing = [...failing.values()].filter((failed) => failed.size === 0).length;
  return { outside, soleBlocker, agreeing, judged: failing.size };
}
