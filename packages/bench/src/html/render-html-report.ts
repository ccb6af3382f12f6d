import type { BenchReport } from '../report/bench-report.js';
import { passCostFitCaveat } from '../report/pass-cost-fit.js';
import { chartLibrarySource } from './chart-library.js';
import { htmlPage } from './html-page.js';
import { contextTables, escapeHtml, resultTables } from './html-tables.js';
import { pageScript } from './page-script.js';

const style = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; } h3 { font-size: 14px; margin: 0; }
.note { color: #666; margin: 2px 0 6px; font-size: 12px; }
#charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; }
.panel { border: 1px solid #ddd; border-radius: 6px; padding: 10px; }
.chart { position: relative; height: 300px; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: right; } td:first-child, th:first-child { text-align: left; }
.incomplete { background: #fee; border: 1px solid #c00; padding: 8px; }
`;

/**
 * The report as one self-contained HTML page: Chart.js and the data inline, no network. Charts:
 * bytes and time against footprint, time against passes with the fixed/per-pass fit, the fit's
 * coefficients with their errors, ratios to the baselines, the copy ceiling, the side sweeps and
 * host memory; then tables of every run. The dispatch samples stay in the JSON report only.
 * @throws KreplayError when Chart.js cannot be read.
 */
export function renderHtmlReport(report: BenchReport): string {
  const fits = report.fits.map((fit) => {
    const caveat = passCostFitCaveat(fit);
    return { ...fit, meaningful: caveat === null, caveat };
  });
  const withoutSamples = { ...report, fits, rows: report.rows.map(({ samples: _samples, ...row }) => row) };
  const data = JSON.stringify(withoutSamples).replace(/</g, '\\u003c');
  const title = `kreplay bench: ${report.configuration.preset} on ${report.driver}`;
  return htmlPage(
    title,
    style,
    `${report.complete ? '' : '<p class="incomplete">This run was interrupted: the report holds what was measured until then.</p>'}
${contextTables(report)}
<h2>Charts</h2>
<div id="charts"></div>
${resultTables(report)}
<h2>Notes</h2>
<ul>${[...report.notes, ...report.skipped.map((cell) => `skipped ${cell.key}: ${cell.reason}`)].map((note) => `<li>${escapeHtml(note)}</li>`).join('\n')}</ul>
<script type="application/json" id="report-data">${data}</script>
<script>${chartLibrarySource()}</script>
<script>${pageScript}</script>`,
  );
}
