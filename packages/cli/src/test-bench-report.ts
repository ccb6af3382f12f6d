import type { BenchReport, BenchRow } from '@kreplay/bench';

const MiB = 2 ** 20;

/** For tests: a small valid bench report: two variants at two pass counts, each row costing `fixedMs + perPassMs x passes`. */
export function smallBenchReport(perPassMs = 2, variants: readonly string[] = ['reference', 'dirty-pages']): BenchReport {
  const row = (variant: string, passes: number): BenchRow => {
    const wallMs = 1 + perPassMs * passes;
    const bytes = { deviceToDevice: MiB * passes, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0 };
    const sample = { index: 0, wallMs, quiesceMs: 0, lockWaitMs: 0, captureMs: 1, passMs: [], restoreMs: [], verifyMs: 0, bytes, stagingBytes: {}, replayed: true, tier: 'device' };
    return {
      key: `${variant}/64MiB/p${passes}/d4/w0.01/s1`, variant, sweep: 'passes', footprintBytes: 64 * MiB, passes, dispatches: 4, writeFraction: 0.01, streams: 1,
      strategy: variant, tier: 'device', dispatchesRun: 2, seconds: (2 * wallMs) / 1000, stopped: null, bytesMeasured: true,
      summary: {
        meanDispatchMs: wallMs, steadyDispatchMs: wallMs, firstDispatchMs: wallMs,
        phaseMs: { quiesce: 0, lockWait: 0, capture: 1, passes: perPassMs * passes, restores: 1, verify: 0 },
        snapshotMs: 2, bytesPerDispatch: { ...bytes, copied: bytes.deviceToDevice }, bytesModelPerDispatch: 64 * MiB * passes,
        bandwidth: { snapshotBytesPerSecond: bytes.deviceToDevice / 0.002, deviceToHostBytesPerSecond: null, hostToDeviceBytesPerSecond: null },
        replayed: 2, declined: 0, declineReasons: [],
      },
      memory: { rssBaselineBytes: 100 * MiB, rssPeakBytes: 200 * MiB, rssSamples: 10, stagingHostHighWaterBytes: 0 },
      background: null,
      ratios: { vsReference: null, vsCopyCeiling: null, ceilingEfficiency: null },
      notes: [],
      samples: [sample, { ...sample, index: 1 }],
    };
  };
  return {
    schema: 'kreplay-bench-report', version: 1, complete: true, createdAt: '2026-01-01T00:00:00.000Z', durationSeconds: 1,
    machine: { hostname: 'test', cpuModel: 'cpu', cores: 2, memoryBytes: 8 * 2 ** 30, os: { platform: 'linux', release: '6', arch: 'x64', version: '#1' } },
    driver: 'host',
    devices: [{ id: 0, driver: 'host', name: 'host agent 0', architecture: 'x86_64', deviceMemoryBytes: 2 ** 30, hostLink: null, memory: { freeBytes: 2 ** 30, totalBytes: 2 ** 30 } }],
    versions: { node: 'v20', addon: '0.1.0', driver: 'host', bench: '0.1.0' },
    gitCommit: null,
    configuration: {
      preset: 'custom', variants: ['reference', 'dirty-pages'], footprints: [64 * MiB], passes: [2, 5], dispatches: 4, writeFraction: 0.01, sweepPasses: 5,
      writeFractionSweep: { footprintBytes: 64 * MiB, values: [] }, dispatchSweep: { footprintBytes: 64 * MiB, values: [] }, streamSweep: { footprintBytes: 64 * MiB, values: [] },
      runSecondsLimit: 10, ceilingRepetitions: 1, ceilingBufferBytes: 64 * MiB, backgroundSoloSeconds: 1, rssSampleMilliseconds: 10,
    },
    baselines: { copyCeilings: [], checkpoint: { provider: 'none', available: false, reason: 'left out by the caller' } },
    rows: variants.flatMap((variant) => [2, 5].map((passes) => row(variant, passes))),
    fits: [],
    skipped: [],
    notes: [],
  };
}
