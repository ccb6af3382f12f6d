import { textTable } from '../report/text-table.js';
import type { MetricChange, ReportComparison } from './compare-reports.js';

const value = (number: number) => (Math.abs(number) >= 1e5 || (Math.abs(number) < 1e-3 && number !== 0) ? number.toExponential(3) : number.toPrecision(4));
function change(worsening: number): string {
  if (!Number.isFinite(worsening)) return worsening > 0 ? 'worse, from zero' : 'better, from zero';
  return `${(100 * Math.abs(worsening)).toFixed(1)}% ${worsening > 0 ? 'worse' : 'better'}`;
}

function changeCells(entry: MetricChange): string[] {
  return [entry.key, entry.metric, value(entry.base), value(entry.head), change(entry.worsening)];
}

/** The terminal text of a comparison: a summary line, then every regression (and the largest improvements). */
export function formatComparison(comparison: ReportComparison): string {
  const { changes, regressions, threshold } = comparison;
  const improved = changes.filter((entry) => entry.worsening < -threshold).sort((a, b) => a.worsening - b.worsening);
  const lines = [
    `compared ${changes.length} metrics of ${new Set(changes.map((entry) => entry.key)).size} configurations; threshold ${(100 * threshold).toFixed(1)}%`,
    `${regressions.length} regressed, ${improved.length} improved beyond the threshold`,
  ];
  if (regressions.length > 0) lines.push('', 'regressions:', textTable(['configuration', 'metric', 'base', 'head', 'change'], regressions.map(changeCells), 2));
  if (improved.length > 0) lines.push('', 'improvements:', textTable(['configuration', 'metric', 'base', 'head', 'change'], improved.slice(0, 10).map(changeCells), 2));
  if (comparison.onlyInBase.length > 0) lines.push('', `only in base (not compared): ${comparison.onlyInBase.join(', ')}`);
  if (comparison.onlyInHead.length > 0) lines.push('', `only in head (not compared): ${comparison.onlyInHead.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
