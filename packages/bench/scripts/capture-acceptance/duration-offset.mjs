// Is kreplay's difference from ncu in a kernel's duration a fixed cost per pass, or a share of the
// kernel's duration? A fixed cost weighs less the longer the kernels profiled, a share does not.
// Fitted by least squares over the launches: (kreplay - ncu's mean) = fixed + share * ncu's mean.
import { kreplayValues } from './agreement.mjs';
import { mean } from './ncu-csv.mjs';

/**
 * The fit over the launches that `ncuRuns` (parseNcu) and kreplay's `rows` (with `kernel` and
 * `metrics`) have in common: `fixed` in the metric's unit (ns for gpu__time_duration.sum), `share`
 * a fraction of ncu's mean, `launches` fitted, `shortest` and `longest` ncu's mean durations among
 * them (the fit says nothing outside that range). Null where fewer than two launches of different
 * durations can be fitted.
 */
export function durationOffset(ncuRuns, rows, metric = 'gpu__time_duration.sum') {
  const kreplay = kreplayValues(ncuRuns, rows);
  const points = [];
  const launches = Math.min(...ncuRuns.map((run) => run.length), rows.length);
  for (let index = 0; index < launches; index += 1) {
    const values = ncuRuns.map((run) => run[index].metrics[metric]);
    const value = kreplay(index)?.[metric];
    if (!values.every(Number.isFinite) || !Number.isFinite(value)) continue;
    const reference = mean(values);
    points.push([reference, value - reference]);
  }
  const average = (pick) => mean(points.map(pick));
  const [meanX, meanY] = [average(([x]) => x), average(([, y]) => y)];
  const variance = average(([x]) => (x - meanX) ** 2);
  if (points.length < 2 || variance === 0) return null;
  const share = average(([x, y]) => (x - meanX) * (y - meanY)) / variance;
  const durations = points.map(([x]) => x);
  return { fixed: meanY - share * meanX, share, launches: points.length, shortest: Math.min(...durations), longest: Math.max(...durations) };
}
