import { describe, expect, it } from 'vitest';
import { exampleProfile, syntheticRooflineProfile } from '../test-support/example-profiles.js';
import { renderProfileHtml } from './render-profile-html.js';

describe('renderProfileHtml', () => {
  it('is one self-contained page: no external resource, the data inline, Chart.js only with a chart', () => {
    const plain = renderProfileHtml(exampleProfile());
    expect(plain).not.toMatch(/<link|src=["']?https?:|<img/i);
    expect(plain).toContain('<script type="application/json" id="profile-data">{"roofline":null}</script>');
    expect(plain).not.toContain('Chart.register');
    const charted = renderProfileHtml(syntheticRooflineProfile());
    expect(charted).toMatch(/Chart/);
    expect(charted.length).toBeGreaterThan(plain.length);
  });

  it('escapes kernel names', () => {
    const profile = syntheticRooflineProfile();
    const html = renderProfileHtml({ ...profile, dispatches: profile.dispatches.map((row) => ({ ...row, kernel: `void f<int></script><b>${row.kernel!}` })) });
    expect(html).not.toContain('</script><b>');
    expect(html).toContain('void f&#60;int&#62;&#60;/script&#62;&#60;b&#62;sgemm_128x128_nn');
  });

  it('names the metrics the bars and the durations need when the profile lacks them', () => {
    const profile = syntheticRooflineProfile();
    const metrics = ['sm__throughput.avg.pct_of_peak_sustained_elapsed'];
    const html = renderProfileHtml({ ...profile, metrics, dispatches: profile.dispatches.map((row) => ({ ...row, metrics: { [metrics[0]!]: 12.5 } })) });
    expect(html).toMatch(/No <code>gpu__time_duration\.sum<\/code> in this profile: kernels are in the order of their first launch/);
    expect(html).toMatch(/Speed-of-light bars need .* this profile lacks <code>gpu__compute_memory_throughput\.avg\.pct_of_peak_sustained_elapsed<\/code>/);
    expect(html).toMatch(/No roofline: /);
    expect(html).toMatch(/Profile with: <code>--metrics sm__throughput\.avg\.pct_of_peak_sustained_elapsed,smsp__sass_thread_inst_executed_op_fadd_pred_on\.sum\.per_cycle_elapsed,/);
  });

  it('says which metrics the roof needs when the profile has the achieved values only', () => {
    const profile = syntheticRooflineProfile();
    const peaks = ['sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained', 'sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained'];
    const html = renderProfileHtml({ ...profile, dispatches: profile.dispatches.map((row) => ({ ...row, metrics: Object.fromEntries(Object.entries(row.metrics!).filter(([name]) => !peaks.includes(name))) })) });
    expect(html).toMatch(/The roofs are not drawn for FP32 and FP64: it needs <code>sm__sass_thread_inst_executed_op_ffma_pred_on\.sum\.peak_sustained<\/code>/);
    expect(html).toContain('"roofs":[]');
  });
});
