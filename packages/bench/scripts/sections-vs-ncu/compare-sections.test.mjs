// compare-sections.mjs on fixture CSVs shaped as ncu 2025.3 and kreplay write them: names, values
// against ncu's spread, units, and a folder of sections-vs-ncu.sh.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agrees, baseValue, compareFolder, compareSection, describeComparisons, parseCsv, passes, readRawPage } from './compare-sections.mjs';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const page = (file) => readRawPage(readFileSync(`${fixtures}${file}`, 'utf8'));
const ncuRuns = [1, 2, 3].map((run) => page(`ncu-SpeedOfLight-${run}.csv`));

describe('reading ncu and kreplay raw pages', () => {
  it("reads quoted fields with commas and doubled quotes, and skips ncu's ==PROF== lines and the program's output", () => {
    expect(parseCsv('==PROF== Connected\nhello\n"a","b, c","d ""e"""\n')).toEqual([['a', 'b, c', 'd "e"']]);
    const ncu = ncuRuns[0];
    expect(ncu.rows).toHaveLength(1);
    expect(ncu.rows[0]['Kernel Name']).toBe('void demo::saxpy_kernel<4>(float, const float *, float *, int)');
    expect(ncu.unitOf['gpu__time_duration.sum']).toBe('ns');
    expect(ncu.metrics).toContain('sm__throughput.avg.pct_of_peak_sustained_elapsed');
    expect(ncu.metrics).not.toContain('Kernel Name');
    expect(() => readRawPage('"Section Name","Metric Name"\n')).toThrow(/not a raw page/);
  });

  it('reads values in their units as base values, and text as none', () => {
    expect(baseValue('25.21', 'us')).toBeCloseTo(25_210);
    expect(baseValue('3,190,000,000.00', 'hz')).toBe(3.19e9);
    expect(baseValue('3.19', 'Ghz')).toBeCloseTo(3.19e9);
    expect(baseValue('1.02', 'Kbyte/block')).toBeCloseTo(1020);
    expect(baseValue('CachePreferNone', '')).toBeNull();
    expect(baseValue('n/a', '')).toBeNull();
  });

  it("takes a value within ncu's spread, its printing, or the tolerance, and refuses one beyond them", () => {
    expect(agrees(22.4, [21.5, 22.5, 23.5], 0.01, 0)).toBe(true);
    expect(agrees(25, [21.5, 22.5, 23.5], 0.01, 0)).toBe(false);
    expect(agrees(25, [21.5, 22.5, 23.5], 0.01, 0.2)).toBe(true);
    expect(agrees(16_384, [16_384, 16_384], 0.01, 0)).toBe(true);
    expect(agrees(16_385, [16_384, 16_384], 0.01, 0)).toBe(false);
  });
});

describe('compareSection', () => {
  const always = page('ncu-baseline.csv').metrics.filter((metric) => !metric.startsWith('gpu__time_duration'));

  it("passes with ncu's names and values within its spread, counting a metric the section says it leaves out", () => {
    const result = compareSection({ section: 'SpeedOfLight', ncuRuns, kreplay: page('kreplay-SpeedOfLight.csv'), always, leftOut: ['launch__waves_per_multiprocessor'] });
    expect(result.extra).toEqual([]);
    expect(result.missing).toEqual([]);
    expect(result.compared.map((entry) => [entry.metric, entry.within])).toEqual([
      ['dram__cycles_elapsed.avg.per_second', true],
      ['gpc__cycles_elapsed.avg.per_second', true],
      ['gpc__cycles_elapsed.max', true],
      ['gpu__time_duration.sum', true],
      ['launch__grid_size', true],
      ['sm__cycles_active.avg', true],
      ['sm__throughput.avg.pct_of_peak_sustained_elapsed', true],
    ]);
    expect(passes(result)).toBe(true);
  });

  it('names a metric kreplay lacks, one ncu lacks, and a value outside the spread', () => {
    const kreplay = page('kreplay-SpeedOfLight.csv');
    const changed = {
      ...kreplay,
      metrics: [...kreplay.metrics.filter((metric) => metric !== 'sm__cycles_active.avg'), 'sm__made_up.sum'],
      rows: [{ ...kreplay.rows[0], 'sm__throughput.avg.pct_of_peak_sustained_elapsed': '30.00', 'sm__made_up.sum': '1' }],
    };
    const result = compareSection({ section: 'SpeedOfLight', ncuRuns, kreplay: changed, always: [], leftOut: ['launch__waves_per_multiprocessor'] });
    expect(result.extra).toEqual(['sm__made_up.sum']);
    expect(result.missing).toEqual([
      { metric: 'device__attribute_architecture', leftOut: false },
      { metric: 'launch__waves_per_multiprocessor', leftOut: true },
      { metric: 'sm__cycles_active.avg', leftOut: false },
    ]);
    expect(result.compared.find((entry) => entry.metric === 'sm__throughput.avg.pct_of_peak_sustained_elapsed')).toMatchObject({ kreplay: 30, ncu: [21.5, 22.5, 23.5], within: false });
    expect(passes(result)).toBe(false);
    const text = describeComparisons([result]);
    expect(text).toContain('SpeedOfLight: DIFFERS; 6 metrics of both, 5/6 values within ncu\'s spread; 1 left out as the section says, 2 missing, 1 ncu lacks');
    expect(text).toContain('  outside: sm__throughput.avg.pct_of_peak_sustained_elapsed kreplay 30, ncu 21.5, 22.5, 23.5');
    expect(text).toContain('  missing: sm__cycles_active.avg');
    expect(text).toContain('  ncu lacks: sm__made_up.sum');
  });
});

describe('compareFolder', () => {
  it("compares each section of a folder of sections-vs-ncu.sh, with ncu's baseline columns and kreplay's left-out metrics", () => {
    const [result] = compareFolder(fixtures);
    expect(result.section).toBe('SpeedOfLight');
    expect(passes(result)).toBe(true);
    expect(describeComparisons([result])).toBe(
      "SpeedOfLight: same names, values within ncu's spread; 7 metrics of both, 7/7 values within ncu's spread; 0 left out as the section says, 0 missing, 0 ncu lacks\n",
    );
  });
});
