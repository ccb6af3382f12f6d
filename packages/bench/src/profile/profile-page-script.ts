import { chartAxes } from '../html/chart-axes.js';

/**
 * The browser script of the profile page (plain JavaScript; Chart.js before it when the page has a
 * roofline): the filter by kernel name, which hides the rows of both tables whose name does not
 * contain the text typed (case-insensitive) and the roofline points of those kernels, and the
 * roofline chart: logarithmic FLOP/byte and FLOP/s axes (ticks at powers of ten, SI prefixes),
 * each kernel's point labelled with its # in the table, and each precision's roof where the
 * profile has it. No template literals inside, so the text can live in this string unchanged.
 */
export const profilePageScript = String.raw`
(function () {
  var data = JSON.parse(document.getElementById('profile-data').textContent);
  var filter = document.getElementById('filter');
  var shown = document.getElementById('shown');
  var kernelRows = [].slice.call(document.querySelectorAll('#kernels tbody tr'));
  var launchRows = [].slice.call(document.querySelectorAll('#launches tbody tr'));
  var chart = null;
` + chartAxes + String.raw`
  function matches(name, query) { return name.toLowerCase().indexOf(query) >= 0; }
  function apply() {
    var query = filter.value.trim().toLowerCase();
    var count = 0;
    kernelRows.forEach(function (row) { var on = matches(row.getAttribute('data-name'), query); row.hidden = !on; if (on) count += 1; });
    launchRows.forEach(function (row) { row.hidden = !matches(row.getAttribute('data-name'), query); });
    shown.textContent = count + ' of ' + kernelRows.length + ' kernels shown';
    if (chart) {
      chart.data.datasets.forEach(function (set) { if (set.kernels) set.data = set.kernels.filter(function (p) { return matches(p.name, query); }); });
      chart.update();
    }
  }
  filter.addEventListener('input', apply);

  if (data.roofline && typeof Chart !== 'undefined') {
    Chart.defaults.animation = false;
    Chart.defaults.maintainAspectRatio = false;
    Chart.defaults.font.size = 12;
    function formatSi(value) {
      var size = Math.abs(value), prefixes = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
      for (var i = 0; i < prefixes.length; i += 1) if (size >= prefixes[i][0]) return significant(value / prefixes[i][0]) + ' ' + prefixes[i][1];
      return significant(value) + ' ';
    }
    formats.flops = function (value) { return formatSi(value) + 'FLOP/s'; };
    formats.intensity = function (value) { return significant(value); };
    var colors = { FP32: '#1f77b4', FP64: '#9467bd' };
    var points = data.roofline.points, roofs = data.roofline.roofs;
    var xs = points.map(function (p) { return p.x; }), ys = points.map(function (p) { return p.y; });
    roofs.forEach(function (r) { xs.push(r.flopsPerSecond / r.dramBytesPerSecond); ys.push(r.flopsPerSecond); });
    var low = Math.min.apply(null, xs) / 4, high = Math.max.apply(null, xs) * 4;
    var datasets = [];
    roofs.forEach(function (r) {
      var ridge = r.flopsPerSecond / r.dramBytesPerSecond;
      var line = [{ x: low, y: low * r.dramBytesPerSecond }, { x: ridge, y: r.flopsPerSecond }, { x: high, y: r.flopsPerSecond }];
      if (ridge <= low) line = [{ x: low, y: r.flopsPerSecond }, { x: high, y: r.flopsPerSecond }];
      if (ridge >= high) line = [{ x: low, y: low * r.dramBytesPerSecond }, { x: high, y: high * r.dramBytesPerSecond }];
      line.forEach(function (p) { ys.push(p.y); });
      datasets.push({ label: r.precision + ' roof: ' + formatSi(r.flopsPerSecond) + 'FLOP/s peak, DRAM ' + formatSi(r.dramBytesPerSecond) + 'B/s',
        data: line, showLine: true, pointRadius: 0, pointStyle: 'line', borderWidth: 2, borderDash: [6, 4], borderColor: colors[r.precision], backgroundColor: colors[r.precision] });
    });
    ['FP32', 'FP64'].forEach(function (precision) {
      var mine = points.filter(function (p) { return p.precision === precision; });
      if (mine.length === 0) return;
      datasets.push({ label: precision + ' kernels (achieved)', data: mine.slice(), kernels: mine, showLine: false, pointRadius: 5, pointStyle: 'circle',
        borderColor: colors[precision], backgroundColor: colors[precision] });
    });
    var xAxis = logAxis('Arithmetic intensity [FLOP/byte]', 'intensity'), yAxis = logAxis('Performance [FLOP/s]', 'flops');
    var labels = { id: 'kernelLabels', afterDatasetsDraw: function (c) {
      var ctx = c.ctx;
      ctx.save(); ctx.font = '11px system-ui, sans-serif'; ctx.fillStyle = '#222'; ctx.textBaseline = 'middle';
      c.data.datasets.forEach(function (set, d) {
        if (!set.kernels) return;
        c.getDatasetMeta(d).data.forEach(function (element, i) { var p = set.data[i]; if (p) ctx.fillText('#' + p.rank, element.x + 7, element.y - 7); });
      });
      ctx.restore();
    } };
    chart = new Chart(document.getElementById('roofline'), { type: 'scatter', data: { datasets: datasets }, plugins: [labels],
      options: { scales: { x: xAxis(xs.concat([low, high])), y: yAxis(ys) },
        plugins: { legend: { position: 'bottom', labels: { usePointStyle: true, boxHeight: 7 } }, tooltip: { callbacks: { label: function (item) {
          var p = item.raw;
          return (p.name ? '#' + p.rank + ' ' + p.name + ': ' : item.dataset.label + ': ') + formatSi(item.parsed.y) + 'FLOP/s at ' + significant(item.parsed.x) + ' FLOP/byte';
        } } } } } });
  }
  apply();
  document.body.setAttribute('data-ready', 'true');
})();
`;
