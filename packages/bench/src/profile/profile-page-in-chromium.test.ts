import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleProfile, syntheticRooflineProfile } from '../test-support/example-profiles.js';
import { findChromium, openHeadlessPage } from '../test-support/headless-chromium.js';
import type { HeadlessPage } from '../test-support/headless-chromium.js';
import type { ProfileDocument } from './profile-document.js';
import { renderProfileHtml } from './render-profile-html.js';

// The profile page loaded in a real headless Chromium (Debian's `chromium`; .ci/run installs it):
// no console error or uncaught exception, the kernel table sorted by time with its bars, the
// filter narrowing rows and roofline points, the roofline drawn with readable axes, or the note
// naming its metrics. Set KREPLAY_SCREENSHOT_DIR to keep a PNG of each page.
const browser = findChromium();
const skipReason = browser === null ? ' (skipped: no chromium on PATH; install it, e.g. apt-get install chromium, or set KREPLAY_CHROMIUM)' : '';
if (browser === null) console.warn(`profile-page-in-chromium${skipReason}`);

interface PageState {
  readonly ready: boolean;
  readonly kernels: readonly { readonly rank: string; readonly name: string; readonly total: string; readonly bars: readonly number[] }[];
  readonly visible: number;
  readonly visibleLaunches: number;
  readonly shown: string;
  readonly chart: null | {
    readonly datasets: readonly { readonly label: string; readonly points: number }[];
    readonly painted: number;
    readonly scales: readonly { readonly id: string; readonly title: string; readonly labels: readonly string[] }[];
  };
  readonly notes: readonly string[];
  readonly external: number;
}

// Runs in the page: the kernel table as shown, the chart's datasets and axes, and whether its canvas has painted pixels.
const inspect = `(() => {
  const rows = [...document.querySelectorAll('#kernels tbody tr')];
  const kernels = rows.filter((row) => !row.hidden).map((row) => ({ rank: row.cells[0].textContent, name: row.cells[1].textContent, total: row.cells[3] ? row.cells[3].textContent : '',
    bars: [...row.querySelectorAll('.bar .fill')].map((fill) => fill.getBoundingClientRect().width / fill.parentElement.getBoundingClientRect().width) }));
  let chart = null;
  if (typeof Chart !== 'undefined') {
    const instance = Object.values(Chart.instances)[0];
    const ctx = instance.canvas.getContext('2d');
    const pixels = ctx.getImageData(0, 0, instance.canvas.width, instance.canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted += 1;
    chart = { datasets: instance.data.datasets.map((set) => ({ label: set.label, points: set.data.length })), painted,
      scales: Object.values(instance.scales).map((scale) => ({ id: scale.id, title: scale.options.title.text, labels: scale.ticks.map((tick) => String(tick.label)) })) };
  }
  return { ready: document.body.getAttribute('data-ready') === 'true', kernels, visible: kernels.length,
    visibleLaunches: [...document.querySelectorAll('#launches tbody tr')].filter((row) => !row.hidden).length,
    shown: document.getElementById('shown').textContent, chart, notes: [...document.querySelectorAll('p.note')].map((note) => note.textContent),
    external: document.querySelectorAll('[src^="http"], link[href], img[src]').length };
})()`;

const directory = mkdtempSync(join(tmpdir(), 'kreplay-profile-page-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function openProfile(name: string, profile: ProfileDocument): Promise<HeadlessPage> {
  const path = join(directory, `${name}.html`);
  writeFileSync(path, renderProfileHtml(profile));
  const page = await openHeadlessPage(browser!, 1400, 1000);
  await page.load(pathToFileURL(path).href);
  return page;
}

async function keepScreenshot(page: HeadlessPage, name: string): Promise<void> {
  const keep = process.env.KREPLAY_SCREENSHOT_DIR;
  if (!keep) return;
  mkdirSync(keep, { recursive: true });
  writeFileSync(join(keep, `${name}.png`), await page.screenshot());
  // The kernel table's first rows and the roofline section at full size, to read labels and axes.
  for (const [part, selector] of [['kernels', '#kernels'], ['roofline', '.chart']] as const) {
    const box = (await page.evaluate(`(() => { const e = document.querySelector('${selector}'); if (!e) return null; const r = e.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: Math.min(r.height, 700) }; })()`)) as { x: number; y: number; width: number; height: number } | null;
    if (box) writeFileSync(join(keep, `${name}-${part}.png`), await page.screenshot(box));
  }
}

/** Types into the filter box as a user does (an input event). */
const typeFilter = (text: string) => `(() => { const box = document.getElementById('filter'); box.value = ${JSON.stringify(text)}; box.dispatchEvent(new Event('input')); })()`;

describe(`the profile page in headless Chromium${skipReason}`, () => {
  it.skipIf(browser === null)('shows the kernels of an H200 capture profile by time with speed-of-light bars, and says which metrics a roofline needs', async () => {
    const profile = exampleProfile();
    const page = await openProfile('profile-h200', profile);
    try {
      const state = (await page.evaluate(inspect)) as PageState;
      await keepScreenshot(page, 'profile-h200');
      expect(page.errors).toEqual([]);
      expect(state.ready).toBe(true);
      expect(state.external).toBe(0);
      expect(state.visible).toBe(42);
      expect(state.shown).toBe('42 of 42 kernels shown');
      expect(state.kernels.map((kernel) => kernel.rank)).toEqual(Array.from({ length: 42 }, (_, index) => String(index + 1)));
      // Durations in the unit ncu prints.
      expect(state.kernels.every((kernel) => /^\d+(\.\d+)? (ns|us|ms|s)$/.test(kernel.total))).toBe(true);
      // Two bars per kernel, each as wide as its share of 100% of peak.
      for (const kernel of state.kernels) {
        expect(kernel.bars).toHaveLength(2);
        for (const share of kernel.bars) expect(share).toBeGreaterThanOrEqual(0);
        for (const share of kernel.bars) expect(share).toBeLessThanOrEqual(1);
      }
      expect(state.chart).toBeNull();
      expect(state.notes.join('\n')).toMatch(/No roofline: .*SpeedOfLight_RooflineChart.*smsp__sass_thread_inst_executed_op_ffma_pred_on\.sum\.per_cycle_elapsed.*dram__bytes\.sum\.per_second/s);

      await page.evaluate(typeFilter('ELEMENTWISE'));
      const filtered = (await page.evaluate(inspect)) as PageState;
      expect(filtered.visible).toBeGreaterThan(0);
      expect(filtered.visible).toBeLessThan(42);
      expect(filtered.kernels.every((kernel) => kernel.name.toLowerCase().includes('elementwise'))).toBe(true);
      expect(filtered.shown).toBe(`${filtered.visible} of 42 kernels shown`);
      expect(filtered.visibleLaunches).toBe(profile.dispatches.filter((row) => row.kernel!.toLowerCase().includes('elementwise')).length);
      await page.evaluate(typeFilter('no kernel has this name'));
      expect(((await page.evaluate(inspect)) as PageState).visible).toBe(0);
    } finally {
      await page.close();
    }
  }, 60_000);

  it.skipIf(browser === null)('draws the roofline of a profile with ncu\'s roofline metrics, the filter narrowing its points', async () => {
    const page = await openProfile('profile-roofline', syntheticRooflineProfile());
    try {
      const state = (await page.evaluate(inspect)) as PageState;
      await keepScreenshot(page, 'profile-roofline');
      expect(page.errors).toEqual([]);
      expect(state.kernels.map((kernel) => kernel.name)).toEqual(['sgemm_128x128_nn', 'dgemm_64x64_tn', 'vectorized_elementwise_add', 'copy_kernel']);
      const chart = state.chart!;
      expect(chart.painted).toBeGreaterThan(0);
      expect(chart.datasets.map((set) => set.label)).toEqual([
        expect.stringMatching(/^FP32 roof: 59\.3 TFLOP\/s peak, DRAM 3\.35 TB\/s$/),
        expect.stringMatching(/^FP64 roof: 29\.7 TFLOP\/s peak, DRAM 3\.35 TB\/s$/),
        'FP32 kernels (achieved)',
        'FP64 kernels (achieved)',
      ]);
      expect(chart.datasets.map((set) => set.points)).toEqual([3, 3, 2, 1]);
      for (const scale of chart.scales) {
        expect(scale.labels.length).toBeLessThanOrEqual(8);
        expect(scale.labels.filter((label) => /\d,\d{3}|\.\d*0(?!\d)|e[+-]/.test(label))).toEqual([]);
      }
      expect(chart.scales.map((scale) => scale.title)).toEqual(['Arithmetic intensity [FLOP/byte]', 'Performance [FLOP/s]']);
      expect(chart.scales[1]!.labels.some((label) => / TFLOP\/s$/.test(label))).toBe(true);
      expect(state.notes.join('\n')).toMatch(/No point for 1 kernel without floating-point work \(or without these metrics\): #4\./);

      await page.evaluate(typeFilter('gemm'));
      const filtered = (await page.evaluate(inspect)) as PageState;
      expect(filtered.kernels.map((kernel) => kernel.name)).toEqual(['sgemm_128x128_nn', 'dgemm_64x64_tn']);
      expect(filtered.chart!.datasets.map((set) => set.points)).toEqual([3, 3, 1, 1]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
