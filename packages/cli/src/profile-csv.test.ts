import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { profileCsv } from './profile-csv.js';
import { testProfileReport } from './test-profile-report.js';

const owner = { id: 4242, name: 'kreplay', host: 'gpu-node' };
const python = spawnSync('python3', ['--version']).status === 0;

/** What Python's csv module (as a script written for ncu's CSV would) reads from `text`: the header, then the rows as dicts. */
function readWithPython(text: string): { header: string[]; rows: Record<string, string>[] } {
  const script = 'import csv, json, sys\nrows = list(csv.reader(sys.stdin))\nprint(json.dumps({"header": rows[0], "rows": [dict(zip(rows[0], row)) for row in rows[1:]]}))';
  const result = spawnSync('python3', ['-c', script], { input: text, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { header: string[]; rows: Record<string, string>[] };
}

const launchColumns = ['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Context', 'Stream', 'Block Size', 'Grid Size', 'Device', 'CC'];

describe("CSV with ncu's columns", () => {
  it("raw page: ncu's launch columns, then every metric by name, a row of units, one row per launch", () => {
    const text = profileCsv(testProfileReport(), 'raw', 'base', owner);
    const lines = text.split('\n');
    expect(lines[0]!.startsWith(`${launchColumns.map((column) => `"${column}"`).join(',')},"dram__cycles_elapsed.avg.per_second","gpc__cycles_elapsed.avg.per_second","gpc__cycles_elapsed.max","gpu__compute_memory_throughput`)).toBe(true);
    expect(lines[1]!.startsWith('"","","","","","","","","","","","hz","hz","cycle","%"')).toBe(true);
    expect(lines[2]!.startsWith('"0","4242","kreplay","gpu-node","void apply<int>(int, int)","","","(128, 1, 1)","(896, 1, 1)","0","9.0","3,190,000,000","1,780,000,000","35,069"')).toBe(true);
    expect(lines).toHaveLength(4);
    expect(text.endsWith('\n')).toBe(true);
  });

  it.skipIf(!python)("raw page: read by Python's csv module as a script reads ncu's (units in the first row, values with separators)", () => {
    const { header, rows } = readWithPython(profileCsv(testProfileReport(), 'raw', 'base', owner));
    expect(header.slice(0, 11)).toEqual(launchColumns);
    const [units, launch] = rows;
    expect(units!['gpu__time_duration.sum']).toBe('ns');
    expect(units!['launch__shared_mem_per_block_dynamic']).toBe('byte/block');
    expect(launch).toMatchObject({ 'Kernel Name': 'void apply<int>(int, int)', 'Block Size': '(128, 1, 1)', 'Grid Size': '(896, 1, 1)', CC: '9.0', 'gpu__time_duration.sum': '19,584', launch__registers_per_thread: '40' });
    expect(Number(launch!['gpu__time_duration.sum']!.replace(/,/g, ''))).toBe(19_584);
  });

  it('raw page with --print-units auto: each column scaled to its largest value', () => {
    const lines = profileCsv(testProfileReport(), 'raw', 'auto', owner).split('\n');
    expect(lines[1]).toContain('"Ghz","Ghz","cycle"');
    expect(lines[2]).toContain('"3.19","1.78","35,069"');
  });

  it.skipIf(!python)('details page: one row per metric of each section, with its label, unit and value, and the rule columns empty', () => {
    const { header, rows } = readWithPython(profileCsv(testProfileReport(), 'details', 'base', owner));
    expect(header).toEqual([...launchColumns, 'Section Name', 'Metric Name', 'Metric Unit', 'Metric Value', 'Rule Name', 'Rule Type', 'Rule Description', 'Estimated Speedup Type', 'Estimated Speedup']);
    expect(rows).toHaveLength(16);
    expect(rows[0]).toMatchObject({ ID: '0', 'Section Name': 'GPU Speed Of Light Throughput', 'Metric Name': 'DRAM Frequency', 'Metric Unit': 'hz', 'Metric Value': '3,190,000,000', 'Rule Name': '' });
    expect(rows.find((row) => row['Metric Name'] === 'Duration')).toMatchObject({ 'Metric Unit': 'ns', 'Metric Value': '19,584' });
    expect(rows.find((row) => row['Metric Name'] === 'Threads')).toMatchObject({ 'Section Name': 'Launch Statistics', 'Metric Unit': 'thread', 'Metric Value': '114,688' });
  });

  it('details page: the metrics named with --metrics under ncu\'s section of them, by metric name; quotes doubled', () => {
    const report = testProfileReport({ sections: [], commandLineMetrics: ['gpu__time_duration.sum'] }, { grid: [1, 1, 1], block: [32, 1, 1], launch: { function: 'k"q', dynamicSharedBytes: 0, clusterDims: null, registersPerThread: null } });
    const lines = profileCsv(report, 'details', 'auto', owner).split('\n');
    expect(lines[1]).toBe('"0","4242","kreplay","gpu-node","k""q","","","(32, 1, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","us","19.58","","","","",""');
  });
});
