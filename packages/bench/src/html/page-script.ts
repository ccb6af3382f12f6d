import { chartAxes } from './chart-axes.js';

/**
 * The browser script of the HTML report (plain JavaScript, run after Chart.js): reads the report
 * from the `report-data` element and draws one chart per panel. Byte axes are logarithmic with
 * ticks at powers of two in binary units, time axes logarithmic with ticks in µs/ms/s, every tick at
 * three significant digits at most and eight ticks at most an axis; axes are padded so that points
 * and whiskers stay inside. Fits that are not meaningful are not charted. No template literals
 * inside, so the text can live in this TypeScript string unchanged.
 */
export const pageScript = String.raw`
(function () {
  var report = JSON.parse(document.getElementById('report-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.size = 11;
` + chartAxes + String.raw`
  var palette = { reference: '#d62728', 'full/pinned': '#ff7f0e', 'full/device': '#9467bd', 'write-set': '#1f77b4', 'dirty-pages': '#2ca02c' };
  var spare = ['#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  function color(name) { if (!palette[name]) palette[name] = spare[Object.keys(palette).length % spare.length]; return palette[name]; }
  var MiB = 1048576;
  function unique(values) { return values.filter(function (v, i) { return values.indexOf(v) === i; }); }
  function numeric(a, b) { return a - b; }
  var rows = report.rows;
  var main = rows.filter(function (r) { return r.sweep === 'passes'; });
  var variants = unique(rows.map(function (r) { return r.variant; }));
  var passList = unique(main.map(function (r) { return r.passes; })).sort(numeric);
  var atPasses = passList.indexOf(report.configuration.sweepPasses) >= 0 ? report.configuration.sweepPasses : passList[passList.length - 1];
  var footprints = unique(main.map(function (r) { return r.footprintBytes; })).sort(numeric);

  function panel(title, note) {
    var box = document.createElement('section');
    box.className = 'panel';
    box.innerHTML = '<h3></h3><p class="note"></p><div class="chart"><canvas></canvas></div>';
    box.querySelector('h3').textContent = title;
    box.querySelector('.note').textContent = note || '';
    document.getElementById('charts').appendChild(box);
    return box.querySelector('canvas');
  }
  function notePanel(title, note) {
    var box = document.createElement('section');
    box.className = 'panel';
    box.innerHTML = '<h3></h3><p class="note"></p>';
    box.querySelector('h3').textContent = title;
    box.querySelector('.note').textContent = note;
    document.getElementById('charts').appendChild(box);
  }
  // Legend entries are small pictures of the dataset: a stretch of its line (dashes included) with
  // its point in the middle, or the point alone where the dataset is points only.
  function swatch(set) {
    // Chart.js draws an image point at its own size in CSS pixels: one canvas pixel each.
    var canvas = document.createElement('canvas'), ctx = canvas.getContext('2d');
    canvas.width = 32; canvas.height = 12;
    ctx.strokeStyle = set.borderColor; ctx.fillStyle = set.backgroundColor; ctx.lineWidth = set.borderWidth || 2;
    if (set.showLine !== false) { ctx.setLineDash(set.borderDash || []); ctx.beginPath(); ctx.moveTo(1, 6); ctx.lineTo(31, 6); ctx.stroke(); ctx.setLineDash([]); }
    if (set.pointRadius !== 0) {
      ctx.beginPath();
      if (set.pointStyle === 'triangle') { ctx.moveTo(16, 2); ctx.lineTo(20, 10); ctx.lineTo(12, 10); ctx.closePath(); } else { ctx.arc(16, 6, 3.5, 0, 2 * Math.PI); }
      ctx.fill();
    }
    return canvas;
  }
  var legend = { position: 'bottom', labels: { usePointStyle: true, pointStyleWidth: 32, generateLabels: function (chart) {
    return Chart.defaults.plugins.legend.labels.generateLabels(chart).map(function (item) {
      item.pointStyle = swatch(chart.data.datasets[item.datasetIndex]);
      return item;
    });
  } } };
  function pointsOf(datasets, key) { var all = []; datasets.forEach(function (set) { set.data.forEach(function (p) { all.push(p[key]); }); }); return all; }
  function line(canvas, datasets, xAxis, yAxis) {
    return new Chart(canvas, { type: 'scatter', data: { datasets: datasets },
      options: { scales: { x: xAxis(pointsOf(datasets, 'x')), y: yAxis(pointsOf(datasets, 'y')) }, plugins: { legend: legend,
        tooltip: { callbacks: { label: function (item) { return item.dataset.label + ': ' + xAxis.format(item.parsed.x) + ', ' + yAxis.format(item.parsed.y); } } } } } });
  }
  function series(label, points, extra) {
    var set = { label: label, data: points.filter(function (p) { return p.y > 0 && isFinite(p.y); }), showLine: true,
      borderColor: color(label.split(' ')[0]), backgroundColor: color(label.split(' ')[0]), pointRadius: 3, borderWidth: 2 };
    for (var key in extra || {}) set[key] = extra[key];
    return set;
  }
  function perVariant(source, x, y, suffix, extra) {
    return variants.map(function (v) {
      var pts = source.filter(function (r) { return r.variant === v; }).map(function (r) { return { x: x(r), y: y(r) }; }).sort(function (a, b) { return a.x - b.x; });
      return series(v + (suffix || ''), pts, extra);
    }).filter(function (s) { return s.data.length > 0; });
  }
  var errorBars = { id: 'errorBars', afterDatasetsDraw: function (chart) {
    var ctx = chart.ctx, y = chart.scales.y, area = chart.chartArea;
    function at(value) { return Math.min(area.bottom, Math.max(area.top, value > 0 || y.type !== 'logarithmic' ? y.getPixelForValue(value) : area.bottom)); }
    chart.data.datasets.forEach(function (set, d) {
      if (!set.errors) return;
      chart.getDatasetMeta(d).data.forEach(function (bar, i) {
        var e = set.errors[i], v = set.data[i];
        if (e === null || e === undefined || v === null || v === undefined) return;
        var low = at(v - e), high = at(v + e);
        ctx.save(); ctx.strokeStyle = '#222'; ctx.beginPath();
        ctx.moveTo(bar.x, low); ctx.lineTo(bar.x, high);
        ctx.moveTo(bar.x - 4, low); ctx.lineTo(bar.x + 4, low);
        ctx.moveTo(bar.x - 4, high); ctx.lineTo(bar.x + 4, high);
        ctx.stroke(); ctx.restore();
      });
    });
  } };
  function bars(canvas, labels, datasets, yAxis, plugins) {
    var values = [];
    datasets.forEach(function (set) { set.data.forEach(function (v, i) {
      if (v === null || v === undefined) return;
      var e = set.errors && set.errors[i] ? set.errors[i] : 0;
      values.push(v, v + e);
      if (v - e > 0) values.push(v - e);
    }); });
    return new Chart(canvas, { type: 'bar', data: { labels: labels, datasets: datasets }, plugins: plugins || [],
      options: { scales: { y: yAxis(values) }, plugins: { legend: { position: 'bottom' },
        tooltip: { callbacks: { label: function (item) { return item.dataset.label + ': ' + yAxis.format(item.parsed.y); } } } } } });
  }
  var atMain = main.filter(function (r) { return r.passes === atPasses; });
  var fp = function (r) { return r.footprintBytes; };
  var footprintAxis = logAxis('footprint', 'bytes');

  if (atMain.length > 0) {
    line(panel('Bytes per dispatch against footprint', atPasses + ' passes; solid: copied, dashed: hashed'),
      perVariant(atMain, fp, function (r) { return r.summary.bytesPerDispatch.copied; }).concat(
        perVariant(atMain, fp, function (r) { return r.summary.bytesPerDispatch.hashed; }, ' hashed', { borderDash: [6, 4], pointStyle: 'triangle' })),
      footprintAxis, logAxis('bytes per dispatch', 'bytes'));
    line(panel('Time per dispatch against footprint', atPasses + ' passes; mean wall time over the run'),
      perVariant(atMain, fp, function (r) { return r.summary.meanDispatchMs; }), footprintAxis, logAxis('time per dispatch', 'ms'));
    var refRows = atMain.filter(function (r) { return r.ratios.vsReference; });
    line(panel('Time relative to the reference design', atPasses + ' passes; row / reference, below 1 is faster'),
      perVariant(refRows, fp, function (r) { return r.ratios.vsReference.time; }), footprintAxis, logAxis('time / reference', 'ratio'));
    var ceilRows = atMain.filter(function (r) { return r.ratios.vsCopyCeiling && r.ratios.vsCopyCeiling.hostLink; });
    line(panel('Snapshot time relative to the raw copy ceiling', 'capture + restores / plain pinned copies of the footprint (1 capture, passes - 1 restores)'),
      perVariant(ceilRows, fp, function (r) { return r.ratios.vsCopyCeiling.hostLink; }), footprintAxis, logAxis('snapshot time / ceiling', 'ratio'));
  }
  var passAxis = countAxis('passes', passList);
  footprints.forEach(function (f) {
    var here = main.filter(function (r) { return r.footprintBytes === f; });
    var sets = perVariant(here, function (r) { return r.passes; }, function (r) { return r.summary.steadyDispatchMs || r.summary.meanDispatchMs; }, '', { showLine: false, pointRadius: 4 });
    report.fits.filter(function (fit) { return fit.footprintBytes === f; }).forEach(function (fit) {
      var xs = [passList[0], passList[passList.length - 1]];
      sets.push(series(fit.variant + (fit.meaningful ? ' fit' : ' fit (not meaningful)'), xs.map(function (x) { return { x: x, y: fit.fixedMs + fit.perPassMs * x }; }), { borderDash: [4, 3], pointRadius: 0, borderWidth: fit.meaningful ? 2 : 1 }));
    });
    line(panel('Time per dispatch against passes, ' + formatBytes(f), 'points: median steady dispatch; dashed: least-squares fit fixed + perPass x passes; logarithmic time axis'),
      sets, passAxis, logAxis('time per dispatch', 'ms'));
  });
  if (report.fits.length > 0) {
    var fitVariants = unique(report.fits.map(function (f) { return f.variant; }));
    var fitFootprints = unique(report.fits.map(function (f) { return f.footprintBytes; })).sort(numeric);
    var dropped = report.fits.filter(function (f) { return !f.meaningful; });
    var droppedNote = dropped.length === 0 ? '' : '; not charted, not meaningful: ' + dropped.map(function (f) { return f.variant + ' at ' + formatBytes(f.footprintBytes) + ' (' + f.caveat + ')'; }).join('; ');
    var meaningfulFits = report.fits.filter(function (f) { return f.meaningful; });
    if (meaningfulFits.length === 0) notePanel('Per-pass and fixed cost (fits)', 'no fit is meaningful, none is charted: ' + dropped.map(function (f) { return f.variant + ' at ' + formatBytes(f.footprintBytes) + ' (' + f.caveat + ')'; }).join('; '));
    if (meaningfulFits.length > 0) ['perPassMs', 'fixedMs'].forEach(function (field) {
      var errorField = field === 'perPassMs' ? 'perPassStandardErrorMs' : 'fixedStandardErrorMs';
      var sets = fitFootprints.map(function (f, i) {
        var fits = fitVariants.map(function (v) { return report.fits.filter(function (x) { return x.variant === v && x.footprintBytes === f && x.meaningful; })[0]; });
        return { label: formatBytes(f), backgroundColor: spare[i % spare.length], data: fits.map(function (x) { return x ? x[field] : null; }), errors: fits.map(function (x) { return x ? x[errorField] : null; }) };
      });
      bars(panel(field === 'perPassMs' ? 'Per-pass cost (fit slope)' : 'Fixed cost per dispatch (fit intercept)', 'logarithmic; whiskers: one standard error' + droppedNote),
        fitVariants, sets, logAxis('time per dispatch', 'ms'), [errorBars]);
    });
  }
  var ceilings = report.baselines.copyCeilings;
  if (ceilings.length > 0) {
    var paths = ceilings[0].paths.map(function (p) { return p.path; });
    var ceilSets = paths.map(function (p, i) { return { label: p, backgroundColor: spare.concat(['#1f77b4'])[i % 6], data: ceilings.map(function (c) { return c.paths.filter(function (x) { return x.path === p; })[0].bytesPerSecond; }) }; });
    bars(panel('Raw copy ceiling', 'plain copy plans of the footprint (and a 64 KiB page hash)'), ceilings.map(function (c) { return formatBytes(c.footprintBytes); }), ceilSets, logAxis('bytes per second', 'rate'));
    var rate = atMain.filter(function (r) { return r.summary.bandwidth.snapshotBytesPerSecond; });
    line(panel('Achieved snapshot bandwidth', 'bytes copied / (capture + restore time), ' + atPasses + ' passes'),
      perVariant(rate, fp, function (r) { return r.summary.bandwidth.snapshotBytesPerSecond; }), footprintAxis, logAxis('bytes per second', 'rate'));
  }
  var byWrite = rows.filter(function (r) { return r.sweep === 'write-fraction' || (r.sweep === 'passes' && r.passes === report.configuration.sweepPasses && r.footprintBytes === report.configuration.writeFractionSweep.footprintBytes); });
  if (unique(byWrite.map(function (r) { return r.writeFraction; })).length > 1) {
    line(panel('Bytes copied against write fraction', 'at the write-fraction sweep footprint'),
      perVariant(byWrite, function (r) { return r.writeFraction; }, function (r) { return r.summary.bytesPerDispatch.copied; }), logAxis('write fraction', 'ratio'), logAxis('bytes per dispatch', 'bytes'));
  }
  var byCount = rows.filter(function (r) { return r.sweep === 'dispatches'; });
  if (byCount.length > 0) {
    line(panel('Time per dispatch against dispatch count', 'a fresh engine per run: the cold first dispatch amortised'),
      perVariant(byCount, function (r) { return r.dispatches; }, function (r) { return r.summary.meanDispatchMs; }), logAxis('dispatches', 'count'), logAxis('time per dispatch', 'ms'));
  }
  var byStreams = rows.filter(function (r) { return r.background; });
  if (byStreams.length > 0) {
    var counts = unique(byStreams.map(function (r) { return r.streams; })).sort(numeric);
    bars(panel('Throughput the other streams lose during replay', '1 - triad throughput during replay / alone'),
      counts.map(function (s) { return s + ' streams'; }),
      unique(byStreams.map(function (r) { return r.variant; })).map(function (v) {
        return { label: v, backgroundColor: color(v), data: counts.map(function (s) { var r = byStreams.filter(function (x) { return x.variant === v && x.streams === s; })[0]; return r ? 100 * r.background.throughputLost : null; }) };
      }), linearAxis('% throughput lost', 'percent'));
  }
  if (atMain.length > 0) {
    var big = footprints[footprints.length - 1];
    var memRows = atMain.filter(function (r) { return r.footprintBytes === big; });
    var largest = Math.max.apply(null, memRows.map(function (r) { return Math.max(r.memory.rssPeakBytes - r.memory.rssBaselineBytes, r.memory.stagingHostHighWaterBytes); }));
    var unit = largest >= 2 * 1073741824 ? { bytes: 1073741824, name: 'GiB' } : { bytes: MiB, name: 'MiB' };
    bars(panel('Host memory, ' + formatBytes(big), 'process RSS peak over its value before the run, and host staging high-water'), memRows.map(function (r) { return r.variant; }), [
      { label: 'RSS growth', backgroundColor: '#7f7f7f', data: memRows.map(function (r) { return (r.memory.rssPeakBytes - r.memory.rssBaselineBytes) / unit.bytes; }) },
      { label: 'host staging high-water', backgroundColor: '#17becf', data: memRows.map(function (r) { return r.memory.stagingHostHighWaterBytes / unit.bytes; }) },
    ], linearAxis(unit.name, 'count'));
  }
  document.body.setAttribute('data-charts', String(Chart.instances ? Object.keys(Chart.instances).length : 0));
})();
`;
