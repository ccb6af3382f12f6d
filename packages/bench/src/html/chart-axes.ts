/**
 * Browser JavaScript (no template literals, ES5 functions) that the HTML report's page script
 * includes: unit formatters and Chart.js axis builders. Defines `formatNumber`, `formatBytes`,
 * `formatMs`, `formatRate`, `tickValues(kind, low, high)`, `logAxis(title, kind)`,
 * `countAxis(title, values)` and `linearAxis(title, kind)`. An axis builder returns a function of
 * the values to show that returns the scale's options; its `format` property formats one value.
 *
 * - Values print with at most three significant digits: bytes in binary units (`16 MiB`), times in
 *   ns/µs/ms/s, rates in binary units per second, other numbers with k/M suffixes (`5k`, `0.7`).
 * - Logarithmic axes span the values padded by a quarter on each side (points and whiskers stay
 *   inside) and carry at most eight ticks: powers of two for bytes and rates, powers of ten (then
 *   1-2-5 steps) otherwise.
 */
export const chartAxes = String.raw`
  var maxTicks = 8;
  function significant(value) { return String(Number(value.toPrecision(3))); }
  function formatNumber(value) {
    var size = Math.abs(value);
    if (size >= 1e9) return significant(value / 1e9) + 'G';
    if (size >= 1e6) return significant(value / 1e6) + 'M';
    if (size >= 1e3) return significant(value / 1e3) + 'k';
    return significant(value);
  }
  var binaryUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  function formatBytes(bytes) {
    var unit = 0;
    while (unit < binaryUnits.length - 1 && Math.abs(bytes) >= Math.pow(1024, unit + 1)) unit += 1;
    return significant(bytes / Math.pow(1024, unit)) + ' ' + binaryUnits[unit];
  }
  function formatMs(ms) {
    var size = Math.abs(ms);
    if (size >= 1000) return significant(ms / 1000) + ' s';
    if (size >= 1 || size === 0) return significant(ms) + ' ms';
    if (size >= 1e-3) return significant(ms * 1e3) + ' \u00b5s';
    return significant(ms * 1e6) + ' ns';
  }
  function formatRate(bytesPerSecond) { return formatBytes(bytesPerSecond) + '/s'; }
  function formatPercent(value) { return significant(value) + '%'; }
  var formats = { bytes: formatBytes, rate: formatRate, ms: formatMs, ratio: formatNumber, count: formatNumber, percent: formatPercent };
  function thin(values) {
    if (values.length <= maxTicks) return values;
    var step = Math.ceil(values.length / maxTicks);
    return values.filter(function (v, i) { return i % step === 0; });
  }
  function tickValues(kind, low, high) {
    var found = [], k, m;
    if (kind === 'bytes' || kind === 'rate') {
      var first = Math.ceil(Math.log2(low) - 1e-9), last = Math.floor(Math.log2(high) + 1e-9), exponents = [];
      for (k = first; k <= last; k += 1) exponents.push(k);
      var step = Math.ceil(exponents.length / maxTicks);
      found = exponents.filter(function (e) { return ((e % step) + step) % step === 0; }).map(function (e) { return Math.pow(2, e); });
    } else {
      var from = Math.floor(Math.log10(low)), to = Math.ceil(Math.log10(high));
      [[1], [1, 2, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]].some(function (mantissas) {
        found = [];
        for (k = from; k <= to; k += 1) for (m = 0; m < mantissas.length; m += 1) {
          var value = Number((mantissas[m] * Math.pow(10, k)).toPrecision(3));
          if (value >= low && value <= high) found.push(value);
        }
        return found.length >= 3;
      });
      found = thin(found);
    }
    if (found.length === 0) found = [Number(Math.sqrt(low * high).toPrecision(2))];
    return found;
  }
  function axisTitle(title) { return { display: true, text: title }; }
  function logAxis(title, kind) {
    var format = formats[kind] || formatNumber;
    var build = function (values) {
      var positive = values.filter(function (v) { return typeof v === 'number' && v > 0 && isFinite(v); });
      var low = positive.length ? Math.min.apply(null, positive) / 1.25 : 1;
      var high = positive.length ? Math.max.apply(null, positive) * 1.25 : 10;
      var ticks = tickValues(kind, low, high);
      return { type: 'logarithmic', min: low, max: high, title: axisTitle(title),
        afterBuildTicks: function (scale) { scale.ticks = ticks.map(function (v) { return { value: v, major: false }; }); },
        ticks: { autoSkip: false, maxRotation: 0, callback: function (value) { return format(value); } } };
    };
    build.format = format;
    return build;
  }
  function countAxis(title, values) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    var ticks = thin(sorted);
    var build = function () {
      var low = sorted.length ? sorted[0] : 0, high = sorted.length ? sorted[sorted.length - 1] : 1;
      var pad = Math.max(0.5, (high - low) * 0.05);
      return { type: 'linear', min: low - pad, max: high + pad, title: axisTitle(title),
        afterBuildTicks: function (scale) { scale.ticks = ticks.map(function (v) { return { value: v }; }); },
        ticks: { autoSkip: false, maxRotation: 0, callback: function (value) { return formatNumber(value); } } };
    };
    build.format = formatNumber;
    return build;
  }
  function linearAxis(title, kind) {
    var format = formats[kind] || formatNumber;
    var build = function () {
      return { type: 'linear', beginAtZero: true, grace: '10%', title: axisTitle(title),
        ticks: { maxTicksLimit: maxTicks, maxRotation: 0, callback: function (value) { return format(value); } } };
    };
    build.format = format;
    return build;
  }
`;
