import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsonSchemaProblem, profileMetricListJsonSchema, profileSectionListJsonSchema } from '@kreplay/bench';
import { runCli } from './run-cli.js';
import { binPath } from './test-spawn-cli.js';
import { recordingIo } from './test-io.js';

// The fake libcupti.so of @kreplay/native's tests: CUPTI's profiler host API for a chip FK100.
const fakeCupti = fileURLToPath(new URL('../../native/build/tests/fake-cupti', import.meta.url));
const fakeBuilt = existsSync(`${fakeCupti}/libcupti.so`) && existsSync(binPath);

/** The built kreplay with CUPTI taken from the fake's folder. */
function kreplayWithFakeCupti(args: readonly string[]) {
  return spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', env: { ...process.env, KREPLAY_CUPTI_LIBRARY_DIR: fakeCupti } });
}

describe("kreplay profile's lists", () => {
  it('--list-sections: each section, its sets and metrics, then those of ncu it leaves out and why', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--list-sections'], io)).toBe(0);
    expect(io.out()).toMatch(/\nIdentifier +Display Name +Sets +Metrics\n/);
    expect(io.out()).toMatch(/\nSpeedOfLight +GPU Speed Of Light Throughput +basic, detailed, full, roofline +10\n/);
    expect(io.out()).toMatch(/\nSchedulerStats +Scheduler Statistics +full +6\n/);
    expect(io.out()).toContain("ncu's sections kreplay leaves out:\n  MemoryWorkloadAnalysis_Chart (detailed, full): ");
    expect(io.out()).toContain('  SourceCounters (detailed, full): its metrics come from SASS instrumentation or PC sampling');
  });

  it('--list-sections --json: the definitions, with what each leaves out, and the sets', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--list-sections', '--json'], io)).toBe(0);
    const listed = JSON.parse(io.out()) as { sections: { identifier: string; leftOut: { names: string[] }[] }[]; sets: Record<string, string[]> };
    expect(listed).toMatchObject({ schema: 'urn:kreplay:schema:profile-section-list:1', schemaVersion: 1 });
    expect(jsonSchemaProblem(profileSectionListJsonSchema, listed)).toBeNull();
    expect(listed.sections.find((section) => section.identifier === 'SpeedOfLight')?.leftOut[0]?.names).toEqual(['launch__waves_per_multiprocessor']);
    expect(listed.sets['basic']).toEqual(['SpeedOfLight', 'LaunchStats', 'Occupancy', 'WorkloadDistribution']);
  });

  it('--list-sets --json prints the same document as --list-sections --json', async () => {
    const [sets, sections] = [recordingIo(), recordingIo()];
    expect(await runCli(['profile', '--list-sets', '--json'], sets)).toBe(0);
    expect(await runCli(['profile', '--list-sections', '--json'], sections)).toBe(0);
    expect(sets.out()).toBe(sections.out());
  });

  it('--list-sets: each set and its sections', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--list-sets'], io)).toBe(0);
    expect(io.out()).toMatch(/\nbasic +SpeedOfLight, LaunchStats, Occupancy, WorkloadDistribution +\d+ +-\n/);
    expect(io.out()).toMatch(/\nfull +SpeedOfLight, SpeedOfLight_RooflineChart, .*MemoryWorkloadAnalysis_Chart/);
  });

  it('--query-metrics without a CUDA device or --chip says so in one line (exit 1)', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--query-metrics', '--driver', 'cuda'], io)).toBe(1);
    expect(io.err()).toMatch(/^kreplay: \[cli\] \[profile\] --query-metrics lists the metrics of this machine's GPU, and it has none CUPTI can name \(.+\)\. Run it on a machine with an NVIDIA GPU and CUPTI, or pass --chip \(e\.g\. --chip GH100\) to list a chip's metrics without one\.\n$/);
  });

  it('refuses --chip and --query-metrics-mode without --query-metrics (exit 2), which they apply to', async () => {
    for (const args of [['--chip', 'GH100'], ['--query-metrics-mode', 'all']]) {
      const io = recordingIo();
      expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum', ...args], io)).toBe(2);
      expect(io.err()).toMatch(new RegExp(`^kreplay: \\[cli\\] \\[profile\\] ${args[0]} applies to --query-metrics, which is not given`));
    }
  });

  it('--query-metrics-mode suffix needs --metrics (exit 2)', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--query-metrics', '--query-metrics-mode', 'suffix', '--chip', 'GH100'], io)).toBe(2);
    expect(io.err()).toMatch(/--query-metrics-mode suffix lists the suffixes of the metrics --metrics names, and it names none/);
  });
});

describe.skipIf(!fakeBuilt)("kreplay profile --query-metrics (CUPTI's host API of the fake libcupti)", () => {
  it("lists a chip's metrics with their types, units and descriptions", () => {
    const result = kreplayWithFakeCupti(['profile', '--query-metrics', '--chip', 'FK100']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Device FK100\n-+ -+ -+ -+\nMetric Name +Metric Type +Metric Unit +Metric Description\n/);
    expect(result.stdout).toMatch(/\ngpu__time_duration +counter +nanosecond +total duration in nanoseconds\n/);
    expect(result.stdout).toMatch(/\nsm__throughput +throughput +SM throughput assuming ideal load balancing\n/);
  });

  it('lists the suffixes of the metrics --metrics names, and prints JSON with --json', () => {
    const suffixes = kreplayWithFakeCupti(['profile', '--query-metrics', '--chip', 'FK100', '--query-metrics-mode', 'suffix', '--metrics', 'gpu__time_duration']);
    expect(suffixes.status, suffixes.stderr).toBe(0);
    expect(suffixes.stdout).toMatch(/\ngpu__time_duration\.sum +counter +nanosecond /);
    const json = kreplayWithFakeCupti(['profile', '--query-metrics', '--chip', 'FK100', '--json']);
    const parsed = JSON.parse(json.stdout) as { chip: string; metrics: { name: string }[] };
    expect(parsed).toMatchObject({ schema: 'urn:kreplay:schema:profile-metric-list:1', schemaVersion: 1, mode: 'base' });
    expect(jsonSchemaProblem(profileMetricListJsonSchema, parsed)).toBeNull();
    const all = JSON.parse(kreplayWithFakeCupti(['profile', '--query-metrics', '--chip', 'FK100', '--query-metrics-mode', 'all', '--json']).stdout) as unknown;
    expect(jsonSchemaProblem(profileMetricListJsonSchema, all)).toBeNull();
    expect(parsed.chip).toBe('FK100');
    expect(parsed.metrics.map((metric) => metric.name)).toContain('dram__bytes');
  });

  it('names an unknown chip in one line, as a usage error (exit 2)', () => {
    const result = kreplayWithFakeCupti(['profile', '--query-metrics', '--chip', 'XX999']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^kreplay: \[cli\] \[profile\] --chip XX999: CUPTI knows no chip of that name \(CUPTI_ERROR_INVALID_CHIP_NAME\)\. Spell it as CUPTI does/);
    expect(result.stderr.split('\n')).toHaveLength(2);
  });
});
