import type { ProfileReport, ProfileRow } from './commands/profile-command.js';
import { findSections, resolveSections } from './sections/resolve-sections.js';

/** A profile report as `kreplay profile` makes one, for the printers' tests: SpeedOfLight on an H200, one captured launch. */
export function testProfileReport(overrides: Partial<ProfileReport> = {}, row: Partial<ProfileRow> = {}): ProfileReport {
  const sections = resolveSections(findSections(['SpeedOfLight', 'LaunchStats'], undefined), 90);
  const metrics = [...new Set(sections.flatMap((section) => [...section.header.map((entry) => entry.metric), ...section.body]))].filter((metric) => !metric.startsWith('launch__'));
  const units: Record<string, string> = Object.fromEntries(metrics.map((metric) => [metric, metric.includes('pct') ? 'percent' : 'gpc_cycle']));
  units['gpu__time_duration.sum'] = 'nanosecond';
  units['gpc__cycles_elapsed.avg.per_second'] = 'gpc_cycle/second';
  units['dram__cycles_elapsed.avg.per_second'] = 'dram_cycle/second';
  const values: Record<string, number> = Object.fromEntries(metrics.map((metric, index) => [metric, 10 + index / 4]));
  values['gpu__time_duration.sum'] = 19_584;
  values['gpc__cycles_elapsed.avg.per_second'] = 1_780_000_000;
  values['dram__cycles_elapsed.avg.per_second'] = 3_190_000_000;
  values['gpc__cycles_elapsed.max'] = 35_069;
  return {
    schema: 'urn:kreplay:schema:profile-report:1',
    schemaVersion: 1,
    driver: 'cuda',
    device: 'NVIDIA H200',
    chip: 'GH100',
    architecture: 'sm_90',
    workload: 'capture:step (1 launches)',
    strategy: 'dirty-pages',
    measure: 'kernel',
    cacheControl: 'all',
    range: 1,
    passes: 9,
    warmRuns: 2,
    samples: 3,
    conditions: { l2Flush: 'write-discard', instructionCache: 'evict', cacheControl: 'all', warmRuns: 2, samples: 3 },
    metrics,
    sections,
    commandLineMetrics: [],
    units,
    setupMs: 12,
    wallMs: 30.5,
    dispatches: [
      {
        dispatch: 3,
        kernel: '_Z5applyIiEviT_',
        range: null,
        replayed: true,
        passes: 9,
        wallMs: 30.5,
        bytesCopied: 1024,
        metrics: values,
        grid: [896, 1, 1],
        block: [128, 1, 1],
        launch: { function: '_Z5applyIiEviT_', dynamicSharedBytes: 1024, clusterDims: null, registersPerThread: 40 },
        ...row,
      },
    ],
    ranges: [],
    ...overrides,
  };
}
