import type { BenchReport, BenchRow } from '../report/bench-report.js';
import { benchReportSchemaId } from '../report/bench-report-json-schema.js';
import { cellKey } from '../sweep/bench-cell.js';
import { passCostFitCaveat } from '../report/pass-cost-fit.js';
import type { PassCostFit } from '../report/pass-cost-fit.js';
import { benchPresets } from '../sweep/bench-presets.js';

const MiB = 2 ** 20;

/** A row whose dispatch costs `fixedMs + perPassMs * passes`, copying `bytesPerPass` per pass. */
function syntheticRow(variant: string, passes: number, fixedMs: number, perPassMs: number, bytesPerPass: number): BenchRow {
  const cell = { variant, sweep: 'passes' as const, footprintBytes: 64 * MiB, passes, dispatches: 4, writeFraction: 0.01, streams: 1 };
  const wallMs = fixedMs + perPassMs * passes;
  const bytes = { deviceToDevice: bytesPerPass * passes, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0 };
  const sample = { index: 0, wallMs, quiesceMs: 0, lockWaitMs: 0, captureMs: 1, passMs: [], restoreMs: [], verifyMs: 0, bytes, stagingBytes: {}, replayed: true, tier: 'device' };
  return {
    ...cell,
    key: cellKey(cell),
    strategy: variant,
    tier: 'device',
    dispatchesRun: 4,
    seconds: (4 * wallMs) / 1000,
    stopped: null,
    bytesMeasured: true,
    summary: {
      meanDispatchMs: wallMs,
      steadyDispatchMs: wallMs,
      firstDispatchMs: wallMs,
      phaseMs: { quiesce: 0, lockWait: 0, capture: 1, passes: perPassMs * passes, restores: 1, verify: 0 },
      snapshotMs: 2,
      bytesPerDispatch: { ...bytes, copied: bytes.deviceToDevice },
      bytesModelPerDispatch: 64 * MiB * passes,
      bandwidth: { snapshotBytesPerSecond: bytes.deviceToDevice / 0.002, deviceToHostBytesPerSecond: null, hostToDeviceBytesPerSecond: null },
      replayed: 4,
      declined: 0,
      declineReasons: [],
    },
    memory: { rssBaselineBytes: 100 * MiB, rssPeakBytes: 200 * MiB, rssSamples: 10, stagingHostHighWaterBytes: 0 },
    background: null,
    ratios: { vsReference: null, vsCopyCeiling: null, ceilingEfficiency: null },
    notes: [],
    samples: [1, 2, 3].map((index) => ({ ...sample, index })),
  };
}

function syntheticFit(variant: string, fixedMs: number, perPassMs: number, standardErrorMs: number): PassCostFit {
  return {
    key: `${variant}/64MiB/d4/w0.01/s1`, variant, footprintBytes: 64 * MiB, dispatches: 4, writeFraction: 0.01, streams: 1,
    passes: [2, 5], fixedMs, perPassMs, fixedStandardErrorMs: standardErrorMs, perPassStandardErrorMs: standardErrorMs, rSquared: 0.99, points: 8,
    meaningful: passCostFitCaveat({ fixedMs, perPassMs, rSquared: 0.99 }) === null, caveat: passCostFitCaveat({ fixedMs, perPassMs, rSquared: 0.99 }),
  };
}

/** Options of {@link syntheticReport}: the costs to plant. */
export interface SyntheticCosts {
  readonly perPassMs?: number;
  readonly fixedMs?: number;
  readonly bytesPerPass?: number;
  readonly standardErrorMs?: number;
  readonly ceilingBytesPerSecond?: number;
}

/** A small, well-formed report with known costs, for tests of compare, parse and render. */
export function syntheticReport(costs: SyntheticCosts = {}): BenchReport {
  const { perPassMs = 2, fixedMs = 1, bytesPerPass = 8 * MiB, standardErrorMs = 0.01, ceilingBytesPerSecond = 50e9 } = costs;
  const rows = ['reference', 'dirty-pages'].flatMap((variant) => [2, 5].map((passes) => syntheticRow(variant, passes, fixedMs, perPassMs, bytesPerPass)));
  return {
    $schema: benchReportSchemaId,
    schema: 'kreplay-bench-report',
    version: 1,
    complete: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    durationSeconds: 1,
    machine: { hostname: 'test', cpuModel: 'test cpu', cores: 2, memoryBytes: 8 * 2 ** 30, os: { platform: 'linux', release: '6', arch: 'x64', version: '#1' } },
    driver: 'host',
    devices: [{ id: 0, driver: 'host', name: 'host agent 0', architecture: 'x86_64', deviceMemoryBytes: 2 ** 30, hostLink: null, memory: { freeBytes: 2 ** 30, totalBytes: 2 ** 30 } }],
    versions: { node: 'v20', addon: '0.1.0', driver: 'host', bench: '0.1.0' },
    gitCommit: null,
    configuration: { ...benchPresets.quick, passes: [2, 5] },
    baselines: {
      copyCeilings: [{ footprintBytes: 64 * MiB, bufferBytes: 64 * MiB, paths: [{ path: 'device-to-device', bytes: 64 * MiB, samplesSeconds: [64 * MiB / ceilingBytesPerSecond], seconds: 64 * MiB / ceilingBytesPerSecond, bytesPerSecond: ceilingBytesPerSecond }] }],
      checkpoint: { provider: 'cupti-checkpoint', available: false, reason: 'not available on the host driver' },
    },
    rows,
    fits: ['reference', 'dirty-pages'].map((variant) => syntheticFit(variant, fixedMs, perPassMs, standardErrorMs)),
    skipped: [],
    notes: ['a note with </script> in it'],
  };
}
