import { describe, expect, it } from 'vitest';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { formatReportTable } from '../report/format-report-table.js';
import { renderHtmlReport } from './render-html-report.js';

describe('renderHtmlReport', () => {
  it('is one self-contained page: Chart.js, the data and the drawing script inline, nothing fetched', () => {
    const html = renderHtmlReport(syntheticReport());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('Chart.js v4');
    expect(html).toContain('id="report-data"');
    expect(html).toContain("document.getElementById('report-data')");
    expect(/<script[^>]+src=/.test(html)).toBe(false);
    expect(/<link[^>]+href=/.test(html)).toBe(false);
    expect(/@import|url\(https?:/.test(html)).toBe(false);
  });

  it('keeps data from closing its script element, and leaves the samples out', () => {
    const html = renderHtmlReport(syntheticReport());
    const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const parsed = JSON.parse(data) as { notes: string[]; rows: Record<string, unknown>[] };
    expect(parsed.notes).toContain('a note with </script> in it');
    expect(parsed.rows[0]).not.toHaveProperty('samples');
    expect(html).toContain('a note with &#60;/script&#62; in it');
  });

  it('marks a fit that is not meaningful, also one read from a report written before fits carried the flag', () => {
    const report = syntheticReport({ perPassMs: -0.5 });
    const older = { ...report, fits: report.fits.map(({ meaningful: _meaningful, caveat: _caveat, ...fit }) => fit) };
    for (const html of [renderHtmlReport(report), renderHtmlReport(older)]) {
      const data = JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as { fits: { meaningful: boolean; caveat: string }[] };
      expect(data.fits.map((fit) => fit.meaningful)).toEqual([false, false]);
      expect(data.fits[0]!.caveat).toMatch(/per-pass cost is negative/);
      expect(html).toMatch(/<td>not meaningful: per-pass cost is negative \(-0\.500 ms\)<\/td>/);
    }
    expect(renderHtmlReport(syntheticReport())).not.toContain('<td>not meaningful');
  });

  it('says when a report is incomplete', () => {
    expect(renderHtmlReport({ ...syntheticReport(), complete: false })).toContain('This run was interrupted');
  });
});

describe('formatReportTable', () => {
  it('lists every row, the fits and the baselines', () => {
    const table = formatReportTable(syntheticReport());
    expect(table.match(/^reference\s+passes/gm)).toHaveLength(2);
    expect(table.match(/^dirty-pages\s+passes/gm)).toHaveLength(2);
    expect(table).toMatch(/fixed and per-pass cost/);
    expect(table).toContain('not available on the host driver');
  });

  it('marks fits that are not meaningful, with the reason', () => {
    const table = formatReportTable(syntheticReport({ perPassMs: -0.5 }));
    expect(table.match(/^dirty-pages\s+64MiB.*not meaningful: per-pass cost is negative \(-0\.500 ms\)$/gm)).toHaveLength(1);
    expect(table).toContain('R² below 0.5');
    expect(formatReportTable(syntheticReport())).not.toContain('not meaningful:');
  });
});
