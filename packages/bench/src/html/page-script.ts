/**
 * The browser script of the HTML report (plain JavaScript, run after Chart.js): reads the report
 * from the `report-data` element and draws one chart per panel. No template literals inside, so the
 * text can live in this TypeScript string unchanged.
 */
export const pageScript = String.raw`
(function () {
  var report = JSON.parse(document.getElementById('report-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.size = 11;
  var palette = { reference: '#d62728', 'full/pinned': '#ff7f0e', 'full/device': '#9467bd', 'write-set': '#1f77b4', 'dirty-pages': '#2ca02c' };
  var spare = ['#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  function color(name) { if (!palette[name]) palette[name] = spare[Object.keys(palette).length % spare.length]; return palette[name]; }
  var MiB = 1048576;
  function unique(values) { return values.filter(function (v, i) { return values.indexOf(v) === i; }); }
  function numeric(a, b) { return a - b; }
  function bytesLabel(b) { return b >= 1073741824 ? (b / 1073741824) + ' GiB' : (b / MiB) + ' MiB'; }
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
  function axis(title, type) { return { type: type || 'linear', title: { display: true, text: title } }; }
  function line(canvas, datasets, xTitle, yTitle, xType, yType) {
    return new Chart(canvas, { type: 'scatter', data: { datasets: datasets },
      options: { scales: { x: axis(xTitle, xType), y: axis(yTitle, yType) }, plugins: { legend: { position: 'bottom' } } } });
  }
  function series(label, points, extra) {
    var set = { label: label, data: points.filter(function (p) { return p.y > 0 && isFinite(p.y); }), showLine: true,
      borderColor: color(label.split(' ')[0]), backgroundColor: color(label.split(' ')[0]), pointRadius: 3 };
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
    var ctx = chart.ctx, y = chart.scales.y;
    chart.data.datasets.forEach(function (set, d) {
      if (!set.errors) return;
      chart.getDatasetMeta(d).data.forEach(function (bar, i) {
        var e = set.errors[i], v = set.data[i];
        if (e === null || e === undefined || v === null) return;
        ctx.save(); ctx.strokeStyle = '#222'; ctx.beginPath();
        ctx.moveTo(bar.x, y.getPixelForValue(v - e)); ctx.lineTo(bar.x, y.getPixelForValue(v + e));
        ctx.moveTo(bar.x - 4, y.getPixelForValue(v - e)); ctx.lineTo(bar.x + 4, y.getPixelForValue(v - e));
        ctx.moveTo(bar.x - 4, y.getPixelForValue(v + e)); ctx.lineTo(bar.x + 4, y.getPixelForValue(v + e));
        ctx.stroke(); ctx.restore();
      });
    });
  } };
  function bars(canvas, labels, datasets, yTitle, yType, plugins) {
    return new Chart(canvas, { type: 'bar', data: { labels: labels, datasets: datasets }, plugins: plugins || [],
      options: { scales: { y: axis(yTitle, yType) }, plugins: { legend: { position: 'bottom' } } } });
  }
  var atMain = main.filter(function (r) { return r.passes === atPasses; });
  var fp = function (r) { return r.footprintBytes / MiB; };

  if (atMain.length > 0) {
    line(panel('Bytes per dispatch against footprint', atPasses + ' passes; solid: copied, dashed: hashed'),
      perVariant(atMain, fp, function (r) { return r.summary.bytesPerDispatch.copied / MiB; }).concat(
        perVariant(atMain, fp, function (r) { return r.summary.bytesPerDispatch.hashed / MiB; }, ' hashed', { borderDash: [6, 4], pointStyle: 'triangle' })),
      'footprint (MiB)', 'MiB per dispatch', 'logarithmic', 'logarithmic');
    line(panel('Time per dispatch against footprint', atPasses + ' passes; mean wall time over the run'),
      perVariant(atMain, fp, function (r) { return r.summary.meanDispatchMs; }), 'footprint (MiB)', 'ms per dispatch', 'logarithmic', 'logarithmic');
    var refRows = atMain.filter(function (r) { return r.ratios.vsReference; });
    line(panel('Time relative to the reference design', atPasses + ' passes; row / reference, below 1 is faster'),
      perVariant(refRows, fp, function (r) { return r.ratios.vsReference.time; }), 'footprint (MiB)', 'time / reference', 'logarithmic', 'logarithmic');
    var ceilRows = atMain.filter(function (r) { return r.ratios.vsCopyCeiling && r.ratios.vsCopyCeiling.hostLink; });
    line(panel('Snapshot time relative to the raw copy ceiling', 'capture + restores / plain pinned copies of the footprint (1 capture, passes - 1 restores)'),
      perVariant(ceilRows, fp, function (r) { return r.ratios.vsCopyCeiling.hostLink; }), 'footprint (MiB)', 'snapshot time / ceiling', 'logarithmic', 'logarithmic');
  }
  footprints.forEach(function (f) {
    var here = main.filter(function (r) { return r.footprintBytes === f; });
    var sets = perVariant(here, function (r) { return r.passes; }, function (r) { return r.summary.steadyDispatchMs || r.summary.meanDispatchMs; }, '', { showLine: false, pointRadius: 4 });
    report.fits.filter(function (fit) { return fit.footprintBytes === f; }).forEach(function (fit) {
      var xs = [passList[0], passList[passList.length - 1]];
      sets.push(series(fit.variant + ' fit', xs.map(function (x) { return { x: x, y: fit.fixedMs + fit.perPassMs * x }; }), { borderDash: [4, 3], pointRadius: 0 }));
    });
    line(panel('Time per dispatch against passes, ' + bytesLabel(f), 'points: median steady dispatch; dashed: least-squares fit fixed + perPass x passes'),
      sets, 'passes', 'ms per dispatch');
  });
  if (report.fits.length > 0) {
    var fitVariants = unique(report.fits.map(function (f) { return f.variant; }));
    var fitFootprints = unique(report.fits.map(function (f) { return f.footprintBytes; })).sort(numeric);
    ['perPassMs', 'fixedMs'].forEach(function (field) {
      var errorField = field === 'perPassMs' ? 'perPassStandardErrorMs' : 'fixedStandardErrorMs';
      var sets = fitFootprints.map(function (f, i) {
        var fits = fitVariants.map(function (v) { return report.fits.filter(function (x) { return x.variant === v && x.footprintBytes === f; })[0]; });
        return { label: bytesLabel(f), backgroundColor: spare[i % spare.length], data: fits.map(function (x) { return x ? x[field] : null; }), errors: fits.map(function (x) { return x ? x[errorField] : null; }) };
      });
      bars(panel(field === 'perPassMs' ? 'Per-pass cost (fit slope)' : 'Fixed cost per dispatch (fit intercept)', 'milliseconds; whiskers: one standard error'),
        fitVariants, sets, 'ms', 'linear', [errorBars]);
    });
  }
  var ceilings = report.baselines.copyCeilings;
  if (ceilings.length > 0) {
    var paths = ceilings[0].paths.map(function (p) { return p.path; });
    var ceilSets = paths.map(function (p, i) { return { label: p, backgroundColor: spare.concat(['#1f77b4'])[i % 6], data: ceilings.map(function (c) { return c.paths.filter(function (x) { return x.path === p; })[0].bytesPerSecond / 1e9; }) }; });
    bars(panel('Raw copy ceiling', 'plain copy plans of the footprint (and a 64 KiB page hash), GB/s'), ceilings.map(function (c) { return bytesLabel(c.footprintBytes); }), ceilSets, 'GB/s');
    var rate = atMain.filter(function (r) { return r.summary.bandwidth.snapshotBytesPerSecond; });
    line(panel('Achieved snapshot bandwidth', 'bytes copied / (capture + restore time), ' + atPasses + ' passes'),
      perVariant(rate, fp, function (r) { return r.summary.bandwidth.snapshotBytesPerSecond / 1e9; }), 'footprint (MiB)', 'GB/s', 'logarithmic', 'logarithmic');
  }
  var byWrite = rows.filter(function (r) { return r.sweep === 'write-fraction' || (r.sweep === 'passes' && r.passes === report.configuration.sweepPasses && r.footprintBytes === report.configuration.writeFractionSweep.footprintBytes); });
  if (unique(byWrite.map(function (r) { return r.writeFraction; })).length > 1) {
    line(panel('Bytes copied against write fraction', 'at the write-fraction sweep footprint'),
      perVariant(byWrite, function (r) { return r.writeFraction; }, function (r) { return r.summary.bytesPerDispatch.copied / MiB; }), 'write fraction', 'MiB per dispatch', 'logarithmic', 'logarithmic');
  }
  var byCount = rows.filter(function (r) { return r.sweep === 'dispatches'; });
  if (byCount.length > 0) {
    line(panel('Time per dispatch against dispatch count', 'a fresh engine per run: the cold first dispatch amortised'),
      perVariant(byCount, function (r) { return r.dispatches; }, function (r) { return r.summary.meanDispatchMs; }), 'dispatches', 'ms per dispatch', 'logarithmic', 'logarithmic');
  }
  var byStreams = rows.filter(function (r) { return r.background; });
  if (byStreams.length > 0) {
    var counts = unique(byStreams.map(function (r) { return r.streams; })).sort(numeric);
    bars(panel('Throughput the other streams lose during replay', '1 - triad throughput during replay / alone'),
      counts.map(function (s) { return s + ' streams'; }),
      unique(byStreams.map(function (r) { return r.variant; })).map(function (v) {
        return { label: v, backgroundColor: color(v), data: counts.map(function (s) { var r = byStreams.filter(function (x) { return x.variant === v && x.streams === s; })[0]; return r ? 100 * r.background.throughputLost : null; }) };
      }), '% throughput lost');
  }
  if (atMain.length > 0) {
    var big = footprints[footprints.length - 1];
    var memRows = atMain.filter(function (r) { return r.footprintBytes === big; });
    bars(panel('Host memory, ' + bytesLabel(big), 'process RSS peak over its value before the run, and host staging high-water (MiB)'), memRows.map(function (r) { return r.variant; }), [
      { label: 'RSS growth', backgroundColor: '#7f7f7f', data: memRows.map(function (r) { return (r.memory.rssPeakBytes - r.memory.rssBaselineBytes) / MiB; }) },
      { label: 'host staging high-water', backgroundColor: '#17becf', data: memRows.map(function (r) { return r.memory.stagingHostHighWaterBytes / MiB; }) },
    ], 'MiB');
  }
  document.body.setAttribute('data-charts', String(Chart.instances ? Object.keys(Chart.instances).length : 0));
})();
`;
