import { amount, amountDefinitions, arrayOf, boolean, count, fraction, kreplaySchemaId, nullable, objectOf, optionalAmount, positiveCount, string } from './json-schema-parts.js';

/**
 * The JSON Schema (draft-07) of a bench report, version 1: what {@link parseBenchReport} validates
 * on read. Byte counts, times, rates and counts are non-negative; fitted coefficients, which a
 * least-squares fit can make negative, are not bounded. Properties it does not name are allowed, so
 * that a report stays readable when a later version adds one. The same document ships as
 * `@kreplay/bench/schema/bench-report.schema.json`.
 */

/** The `$id` of the bench report schema, and the `$schema` every report written by this package holds. */
export const benchReportSchemaId = kreplaySchemaId('bench-report', 1);

const sampleBytes = objectOf({ deviceToDevice: amount, deviceToHost: amount, hostToDevice: amount, hostToHost: amount, hashed: amount });

const dispatchSample = objectOf(
  {
    index: count,
    wallMs: amount,
    quiesceMs: amount,
    lockWaitMs: amount,
    captureMs: optionalAmount,
    passMs: arrayOf(amount),
    restoreMs: arrayOf(amount),
    verifyMs: amount,
    bytes: sampleBytes,
    stagingBytes: { type: 'object', additionalProperties: amount },
    replayed: boolean,
    tier: nullable('string'),
    declineReason: string,
  },
  ['declineReason'],
);

const rowSummary = objectOf({
  meanDispatchMs: amount,
  steadyDispatchMs: optionalAmount,
  firstDispatchMs: amount,
  phaseMs: objectOf({ quiesce: amount, lockWait: amount, capture: amount, passes: amount, restores: amount, verify: amount }),
  snapshotMs: amount,
  bytesPerDispatch: objectOf({ ...sampleBytes.properties, copied: amount }),
  bytesModelPerDispatch: amount,
  bandwidth: objectOf({ snapshotBytesPerSecond: optionalAmount, deviceToHostBytesPerSecond: optionalAmount, hostToDeviceBytesPerSecond: optionalAmount }),
  replayed: count,
  declined: count,
  declineReasons: arrayOf(string),
});

const rowRatios = objectOf({
  vsReference: nullable('object', objectOf({ time: optionalAmount, snapshotTime: optionalAmount, bytes: optionalAmount })),
  vsCopyCeiling: nullable('object', objectOf({ hostLink: optionalAmount, device: optionalAmount })),
  ceilingEfficiency: optionalAmount,
});

const cell = {
  key: { type: 'string', minLength: 1 },
  variant: { type: 'string', minLength: 1 },
  footprintBytes: count,
  dispatches: count,
  writeFraction: fraction,
  streams: positiveCount,
};

const benchRow = objectOf({
  ...cell,
  passes: positiveCount,
  sweep: { enum: ['passes', 'write-fraction', 'dispatches', 'streams'] },
  strategy: string,
  tier: nullable('string'),
  dispatchesRun: count,
  seconds: amount,
  stopped: { enum: ['time-limit', 'interrupted', null] },
  bytesMeasured: boolean,
  summary: rowSummary,
  memory: objectOf({ rssBaselineBytes: amount, rssPeakBytes: amount, rssSamples: count, stagingHostHighWaterBytes: amount }),
  background: nullable(
    'object',
    objectOf({
      streams: count,
      bytesPerKernel: amount,
      soloKernelsPerSecond: amount,
      concurrentKernelsPerSecond: amount,
      // 1 - concurrent / solo: negative when the other streams ran faster beside the replay.
      throughputLost: nullable('number'),
    }),
  ),
  ratios: rowRatios,
  notes: arrayOf(string),
  samples: arrayOf(dispatchSample),
});

const passCostFit = objectOf({
  ...cell,
  passes: arrayOf(positiveCount),
  // Fitted coefficients: a least-squares fit can make them negative.
  fixedMs: nullable('number'),
  perPassMs: nullable('number'),
  fixedStandardErrorMs: optionalAmount,
  perPassStandardErrorMs: optionalAmount,
  rSquared: nullable('number'),
  points: count,
  // Whether the fit is a cost at all (no negative coefficient, R² at least 0.5), and why not; absent
  // in reports written before they were added.
  meaningful: boolean,
  caveat: nullable('string'),
}, ['meaningful', 'caveat']);

const copyCeiling = objectOf({
  footprintBytes: count,
  bufferBytes: count,
  paths: arrayOf(objectOf({ path: string, bytes: amount, samplesSeconds: arrayOf(amount), seconds: amount, bytesPerSecond: optionalAmount })),
});

const sideSweep = (values: unknown) => objectOf({ footprintBytes: count, values: arrayOf(values) });

const configuration = objectOf({
  preset: string,
  variants: arrayOf(string),
  footprints: arrayOf(count),
  passes: arrayOf(positiveCount),
  dispatches: count,
  writeFraction: fraction,
  sweepPasses: positiveCount,
  writeFractionSweep: sideSweep(fraction),
  dispatchSweep: sideSweep(count),
  streamSweep: sideSweep(positiveCount),
  runSecondsLimit: amount,
  ceilingRepetitions: count,
  ceilingBufferBytes: count,
  backgroundSoloSeconds: amount,
  rssSampleMilliseconds: amount,
});

const device = objectOf({
  id: count,
  driver: string,
  name: string,
  architecture: string,
  deviceMemoryBytes: count,
  hostLink: nullable('object', objectOf({ name: string, bytesPerSecond: optionalAmount })),
  memory: objectOf({ freeBytes: count, totalBytes: count }),
});

/** The bench report schema as a plain object (JSON Schema draft-07). */
export const benchReportJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: benchReportSchemaId,
  title: 'kreplay bench report, version 1',
  description: 'What `kreplay bench --out` writes: the machine, the configuration, every run (rows, with each dispatch sample), the pass-cost fits and the baselines measured in the same run.',
  definitions: amountDefinitions,
  ...objectOf(
    {
      $schema: { type: 'string', description: `The schema this report follows: ${benchReportSchemaId}` },
      schema: { const: 'kreplay-bench-report' },
      version: { const: 1 },
      complete: boolean,
      createdAt: string,
      durationSeconds: amount,
      machine: objectOf({
        hostname: string,
        cpuModel: string,
        cores: count,
        memoryBytes: count,
        os: objectOf({ platform: string, release: string, arch: string, version: string }),
      }),
      driver: string,
      devices: arrayOf(device),
      versions: objectOf({ node: string, addon: string, driver: string, bench: string }),
      gitCommit: nullable('string'),
      configuration,
      baselines: objectOf({
        copyCeilings: arrayOf(copyCeiling),
        checkpoint: objectOf({ provider: string, available: boolean, reason: nullable('string') }),
      }),
      rows: arrayOf(benchRow),
      fits: arrayOf(passCostFit),
      skipped: arrayOf(objectOf({ key: string, reason: string })),
      notes: arrayOf(string),
    },
    ['$schema'],
  ),
} as const;
