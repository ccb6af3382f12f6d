import { describe, expect, it } from 'vitest';
import { describeProfile } from './profile-details-page.js';
import { testProfileReport } from './test-profile-report.js';

/** A table row's pattern: label, unit and value in their columns (the widths are the table's). */
const tableRow = (label: string, unit: string, value: string) => new RegExp(`\\n {4}${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} +${unit === '' ? '' : `${unit.replace('/', '\\/')} +`}${value}\\n`);

describe("the details page (ncu's default page)", () => {
  it("names each launch's kernel, shape and device as ncu does, then each section's table in ncu's units", () => {
    const text = describeProfile(testProfileReport());
    expect(text).toContain('NVIDIA H200 (GH100), capture:step (1 launches); 9 passes per dispatch after 2 unprofiled runs, medians of 3 samples, strategy dirty-pages');
    expect(text).toContain('\n  void apply<int>(int, int) (896, 1, 1)x(128, 1, 1), Device 0, CC 9.0\n    Replay: launch 3, 9 passes, 30.50 ms wall, 1.0 KiB copied\n');
    expect(text).toContain(
      [
        '    Section: GPU Speed Of Light Throughput',
        '    ----------------------- ----------- ------------',
        '    Metric Name             Metric Unit Metric Value',
        '    ----------------------- ----------- ------------',
        '    DRAM Frequency                  Ghz         3.19',
        '    SM Frequency                    Ghz         1.78',
        '    Elapsed Cycles                cycle        35069',
      ].join('\n'),
    );
    expect(text).toMatch(tableRow('Duration', 'us', '19\\.58'));
    expect(text).toContain('    Section: Launch Statistics');
    expect(text).toMatch(tableRow('Block Size', '', '128'));
    expect(text).toMatch(tableRow('Dynamic Shared Memory Per Block', 'Kbyte/block', '1\\.02'));
    expect(text).toMatch(tableRow('Registers Per Thread', 'register/thread', '40'));
    expect(text).toMatch(tableRow('Threads', 'thread', '114688'));
  });

  it('prints n/a where a value is not known, and base units when asked', () => {
    const unknown = describeProfile(testProfileReport({}, { grid: undefined, block: undefined, launch: { function: 'scatterWrite', dynamicSharedBytes: null, clusterDims: null, registersPerThread: null } }), { units: 'base' });
    expect(unknown).toContain('\n  scatterWrite, Device 0, CC 9.0\n');
    expect(unknown).toMatch(tableRow('Grid Size', '', 'n/a'));
    expect(unknown).toMatch(tableRow('Duration', 'ns', '19584'));
  });

  it("prints the metrics named with --metrics in ncu's table of them, and every metric on the raw page", () => {
    const report = testProfileReport({ sections: [], commandLineMetrics: ['gpu__time_duration.sum'] });
    expect(describeProfile(report)).toMatch(/Section: Command line profiler metrics\n.*\n {4}Metric Name {12}Metric Unit Metric Value\n.*\n {4}gpu__time_duration\.sum {10}us {8}19\.58\n/);
    const raw = describeProfile(testProfileReport(), { page: 'raw' });
    expect(raw).toContain('    Section: Raw Metrics');
    expect(raw).toMatch(/\n {4}launch__grid_size +896\n/);
  });

  it('says why a launch has no values, and prints no table for it', () => {
    const text = describeProfile(testProfileReport({}, { replayed: false, metrics: null, declineReason: 'snapshot over budget' }));
    expect(text).toContain('    Replay: launch 3, 9 passes, 30.50 ms wall, 1.0 KiB copied (not replayed)\n    declined: snapshot over budget');
    expect(text).not.toContain('Section:');
  });
});
