import { chartLibrarySource } from '../html/chart-library.js';
import { escapeHtml } from '../html/html-tables.js';
import { formatDeviceComparison } from './format-device-comparison.js';
import type { DeviceComparison } from './device-comparison.js';

// Draws one grouped bar chart per variant: per-pass cost at each footprint, one bar per device.
const pageScript = `
const comparison = JSON.parse(document.getElementById('comparison-data').textContent);
const colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
const variants = [...new Set(comparison.rows.map((row) => row.variant))];
for (const variant of variants) {
  const rows = comparison.rows.filter((row) => row.variant === variant);
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.innerHTML = '<h3></h3><div class="chart"><canvas></canvas></div>';
  panel.querySelector('h3').textContent = variant + ': per-pass cost (ms) by device';
  document.getElementById('charts').appendChild(panel);
  new Chart(panel.querySelector('canvas'), {
    type: 'bar',
    data: {
      labels: rows.map((row) => (row.footprintBytes / 2 ** 20).toFixed(0) + ' MiB'),
      datasets: comparison.devices.map((device, index) => ({
        label: device.label,
        backgroundColor: colors[index % colors.length],
        data: rows.map((row) => (row.cells[index] ? row.cells[index].perPassMs : null)),
      })),
    },
    options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true, title: { display: true, text: 'ms per pass' } } } },
  });
}
`;

/**
 * The by-device comparison as one self-contained HTML page (Chart.js inline, no network): a bar
 * chart per variant of the per-pass cost on each device, and the table.
 * @throws KreplayError when Chart.js cannot be read.
 */
export function renderDeviceComparisonHtml(comparison: DeviceComparison): string {
  const data = JSON.stringify(comparison).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>kreplay: cost across devices</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
#charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; }
.panel { border: 1px solid #ddd; border-radius: 6px; padding: 10px; } .chart { position: relative; height: 300px; }
h3 { font-size: 14px; margin: 0; } pre { font-size: 12px; } .incomplete { background: #fee; border: 1px solid #c00; padding: 8px; }
</style>
</head>
<body>
<h1>kreplay: replay cost across devices</h1>
${comparison.complete ? '' : '<p class="incomplete">Incomplete: some reports are missing or were interrupted; this page shows what arrived.</p>'}
<div id="charts"></div>
<h2>Table</h2>
<pre>${escapeHtml(formatDeviceComparison(comparison))}</pre>
<script type="application/json" id="comparison-data">${data}</script>
<script>${chartLibrarySource()}</script>
<script>${pageScript}</script>
</body>
</html>
`;
}
