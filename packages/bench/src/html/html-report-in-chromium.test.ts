import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openRuntime } from '@kreplay/native';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBenchReport } from '../report/parse-bench-report.js';
import type { BenchReport } from '../report/bench-report.js';
import { runBench } from '../run-bench.js';
import { benchPresets } from '../sweep/bench-presets.js';
import { findChromium, openHeadlessPage } from '../test-support/headless-chromium.js';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { renderHtmlReport } from './render-html-report.js';

// The HTML report loaded in a real headless Chromium (Debian's `chromium`; .ci/run installs it):
// no console error or uncaught exception, every panel a chart with data painted on its canvas,
// readable ticks, no bar of a fit below zero. Set KREPLAY_SCREENSHOT_DIR to keep a PNG of each page.
const browser = findChromium();
const skipReason = browser === null ? ' (skipped: no chromium on PATH; install it, e.g. apt-get install chromium, or set KREPLAY_CHROMIUM)' : '';
if (browser === null) console.warn(`html-report-in-chromium${skipReason}`);

interface ChartState {
  readonly title: string;
  readonly type: string;
  readonly datasets: number;
  readonly points: number;
  readonly painted: number;
  readonly lowestBar: number | null;
  readonly whiskersInside: boolean;
  readonly scales: readonly { id: string; type: string; labels: string[] }[];
}
interface PageState {
  readonly charts: readonly ChartState[];
  readonly canvases: number;
  readonly counted: string | null;
  readonly notes: readonly string[];
}

// Runs in the page: what each Chart.js instance holds and whether its canvas has painted pixels.
const inspect = `(() => {
  const charts = Object.values(Chart.instances).map((chart) => {
    const values = chart.data.datasets.flatMap((set) => set.data.filter((v) => v !== null && v !== undefined));
    const ctx = chart.canvas.getContext('2d');
    const pixels = ctx.getImageData(0, 0, chart.canvas.width, chart.canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted += 1;
    const y = chart.scales.y;
    const whiskersInside = chart.data.datasets.every((set) => !set.errors || set.data.every((v, i) => {
      const e = set.errors[i];
      return v === null || e === null || e === undefined || (v + e <= y.max && (y.type !== 'logarithmic' || v - e <= 0 || v - e >= y.min));
    }));
    return {
      title: chart.canvas.closest('section').querySelector('h3').textContent, type: chart.config.type,
      datasets: chart.data.datasets.length, points: values.length, painted,
      lowestBar: chart.config.type === 'bar' && values.length ? Math.min(...values) : null, whiskersInside,
      scales: Object.values(chart.scales).map((scale) => ({ id: scale.id, type: scale.type, labels: scale.ticks.map((tick) => String(tick.label)) })),
    };
  });
  return { charts, canvases: document.querySelectorAll('#charts canvas').length, counted: document.body.getAttribute('data-charts'), notes: [...document.querySelectorAll('#charts .note')].map((note) => note.textContent) };
})()`;

const directory = mkdtempSync(join(tmpdir(), 'kreplay-html-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function loadInChromium(name: string, report: BenchReport): Promise<{ errors: string[]; state: PageState }> {
  const path = join(directory, `${name}.html`);
  writeFileSync(path, renderHtmlReport(report));
  const page = await openHeadlessPage(browser!, 1400, 1000);
  try {
    await page.load(pathToFileURL(path).href);
    const state = (await page.evaluate(inspect)) as PageState;
    const keep = process.env.KREPLAY_SCREENSHOT_DIR;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      writeFileSync(join(keep, `${name}.png`), await page.screenshot());
      const charts = (await page.evaluate("(() => { const r = document.getElementById('charts').getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height }; })()")) as { x: number; y: number; width: number; height: number };
      for (let top = 0, part = 0; top < charts.height; top += 700, part += 1) {
        writeFileSync(join(keep, `${name}-charts-${part}.png`), await page.screenshot({ ...charts, y: charts.y + top, height: Math.min(700, charts.height - top) }));
      }
    }
    return { errors: [...page.errors], state };
  } finally {
    await page.close();
  }
}

function expectReadableCharts(errors: readonly string[], state: PageState): void {
  expect(errors).toEqual([]);
  expect(state.charts.length).toBeGreaterThan(0);
  expect(state.charts.length).toBe(state.canvases);
  expect(state.counted).toBe(String(state.canvases));
  for (const chart of state.charts) {
    expect({ title: chart.title, empty: chart.datasets === 0 || chart.points === 0 || chart.painted === 0 }).toEqual({ title: chart.title, empty: false });
    expect({ title: chart.title, whiskersInside: chart.whiskersInside }).toEqual({ title: chart.title, whiskersInside: true });
    for (const scale of chart.scales.filter((each) => each.type !== 'category')) {
      expect({ title: chart.title, axis: scale.id, ticks: scale.labels.length <= 8 }).toEqual({ title: chart.title, axis: scale.id, ticks: true });
      // Ticks read 16 MiB, 700 µs, 5k: no digit grouping, no trailing zeros.
      expect(scale.labels.filter((label) => /\d,\d{3}|\.\d*0(?!\d)/.test(label))).toEqual([]);
    }
    if (/fit/.test(chart.title) && chart.lowestBar !== null) expect(chart.lowestBar).toBeGreaterThan(0);
  }
}

describe(`the HTML report in headless Chromium${skipReason}`, () => {
  it.skipIf(browser === null)('draws a report measured on the host driver, every chart with data, nothing logged as an error', async () => {
    await using runtime = await openRuntime({ driver: 'host' });
    const MiB = 2 ** 20;
    const report = await runBench(runtime, {
      configuration: {
        ...benchPresets.quick, variants: ['reference', 'write-set', 'dirty-pages'], footprints: [MiB, 4 * MiB], passes: [2, 3], dispatches: 3, sweepPasses: 3,
        writeFractionSweep: { footprintBytes: 4 * MiB, values: [0.1] }, dispatchSweep: { footprintBytes: MiB, values: [1, 4] },
        streamSweep: { footprintBytes: 4 * MiB, values: [2] }, runSecondsLimit: 2, ceilingRepetitions: 1, ceilingBufferBytes: 4 * MiB, backgroundSoloSeconds: 0.05,
      },
    });
    const { errors, state } = await loadInChromium('host-report', report);
    expectReadableCharts(errors, state);
    const titles = state.charts.map((chart) => chart.title);
    expect(titles).toEqual(expect.arrayContaining(['Bytes per dispatch against footprint', 'Time per dispatch against passes, 4 MiB', 'Raw copy ceiling']));
    // Fits on a busy host may all be noise: then a note says so instead of a chart.
    expect(titles.includes('Per-pass cost (fit slope)') || state.notes.some((note) => note.startsWith('no fit is meaningful'))).toBe(true);
  }, 120_000);

  it.skipIf(browser === null)('draws the committed H200 example with readable axes', async () => {
    const example = new URL('../../examples/standard-h200.json', import.meta.url);
    const report = parseBenchReport(readFileSync(example, 'utf8'), example.pathname);
    const { errors, state } = await loadInChromium('standard-h200', report);
    expectReadableCharts(errors, state);
    const footprint = state.charts.find((chart) => chart.title === 'Time per dispatch against footprint')!;
    expect(footprint.scales.find((scale) => scale.id === 'x')!.labels).toEqual(expect.arrayContaining(['16 MiB', '1 GiB']));
  }, 60_000);

  it.skipIf(browser === null)('leaves fits that are not meaningful out of the bars, saying so', async () => {
    const { errors, state } = await loadInChromium('negative-fit', syntheticReport({ perPassMs: -0.5 }));
    expect(errors).toEqual([]);
    expect(state.charts.map((chart) => chart.title)).not.toContain('Per-pass cost (fit slope)');
    expect(state.notes).toContainEqual(expect.stringMatching(/^no fit is meaningful, none is charted: reference at 64 MiB \(per-pass cost is negative/));
  }, 60_000);
});
