import { describe, expect, it } from 'vitest';
import type { BenchReport } from '../report/bench-report.js';
import { syntheticReport } from '../test-support/synthetic-report.js';
import { compareByDevice } from './device-comparison.js';
import { formatDeviceComparison } from './format-device-comparison.js';
import { renderDeviceComparisonHtml } from './render-device-comparison-html.js';

function onDevice(report: BenchReport, name: string, link: string, hostname: string): BenchReport {
  const device = report.devices[0]!;
  return {
    ...report,
    driver: 'cuda',
    machine: { ...report.machine, hostname },
    devices: [{ ...device, driver: 'cuda', name, hostLink: { name: link, bytesPerSecond: null } }],
  };
}

describe('compareByDevice', () => {
  const h100 = (hostname: string, perPassMs: number) => ({ source: `${hostname}.json`, report: onDevice(syntheticReport({ perPassMs }), 'NVIDIA H100', 'PCIe Gen5 x16', hostname) });
  const h200 = { source: 'b1.json', report: onDevice(syntheticReport({ perPassMs: 3 }), 'NVIDIA H200', 'PCIe Gen5 x16', 'b1') };

  it('groups reports by device and host link, takes the median per device, and scales against the first device', () => {
    const comparison = compareByDevice([h100('a1', 2), h100('a2', 4), h100('a3', 1), h200]);
    expect(comparison.complete).toBe(true);
    expect(comparison.devices.map((device) => [device.deviceName, device.sources.length, device.hosts])).toEqual([
      ['NVIDIA H100', 3, ['a1', 'a2', 'a3']],
      ['NVIDIA H200', 1, ['b1']],
    ]);
    const dirty = comparison.rows.find((row) => row.variant === 'dirty-pages')!;
    expect(dirty.cells.map((cell) => cell?.perPassMs)).toEqual([2, 3]);
    expect(dirty.cells.map((cell) => cell?.perPassVsFirstDevice)).toEqual([1, 1.5]);
  });

  it('marks the comparison incomplete and lists what never arrived, keeping what did', () => {
    const comparison = compareByDevice([h200], ['task 1 of job 7 ended FAILED']);
    expect(comparison.complete).toBe(false);
    expect(formatDeviceComparison(comparison)).toMatch(/missing: task 1 of job 7 ended FAILED[\s\S]*INCOMPLETE/);
    expect(comparison.rows).toHaveLength(2);
  });

  it('renders a self-contained page with the data and a chart per variant', () => {
    const html = renderDeviceComparisonHtml(compareByDevice([h100('a1', 2), h200]));
    expect(html).toContain('NVIDIA H200 | PCIe Gen5 x16 | cuda');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('new Chart(');
  });
});
