import { amount, arrayOf, boolean, count, fraction, kreplayDocumentSchema, kreplaySchemaId, nullable, objectOf, optionalAmount, positiveCount, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay overhead --json` prints (and `-o` writes). */
export const overheadResultVersion = 1;
/** The `schema` of what `kreplay overhead --json` prints and `kreplay overhead -o FILE` writes. */
export const overheadResultSchemaId = kreplaySchemaId('overhead-result', overheadResultVersion);

/** A difference of two times (an overhead can be below zero in noise), or null where not measured. */
const signedOrNull = nullable('number');
const stagingByTier = nullable('object', { required: ['device', 'host-pinned', 'host-pageable'], properties: { device: amount, 'host-pinned': amount, 'host-pageable': amount } });

const row = objectOf({
  variant: string,
  available: boolean,
  note: nullable('string'),
  firstDispatchMs: optionalAmount,
  stagingBytesByTier: stagingByTier,
  hostStagingHighWaterBytes: optionalAmount,
  hostHighWaterRatio: optionalAmount,
  warmupDispatches: count,
  warmupMs: optionalAmount,
  dispatchesTimed: count,
  replayMs: optionalAmount,
  passesWithoutReplayMs: optionalAmount,
  overheadMs: signedOrNull,
  hostBeforeEnqueueMs: optionalAmount,
  hostAfterWaitMs: optionalAmount,
  pinnedRateVsRawCopy: signedOrNull,
  bytesCopiedPerDispatch: optionalAmount,
  bytesHashedPerDispatch: optionalAmount,
  declined: count,
  verified: nullable('boolean'),
  floorRatio: signedOrNull,
});

const result = objectOf({
  driver: string,
  device: string,
  shape: { enum: ['A', 'B'] },
  footprintBytes: count,
  footprintOfDevice: amount,
  writeFraction: fraction,
  passes: positiveCount,
  dispatches: positiveCount,
  warmup: objectOf({ dispatches: count, maxSeconds: amount }),
  phaseTimings: boolean,
  bareMs: amount,
  passesWithoutReplayMs: amount,
  candidateBytes: count,
  rates: objectOf({ hashBytesPerSecond: optionalAmount, copyBytesPerSecond: optionalAmount, pinnedDeviceToHostBytesPerSecond: optionalAmount, pinnedHostToDeviceBytesPerSecond: optionalAmount }),
  floorMs: optionalAmount,
  rows: arrayOf(row),
});

/**
 * The JSON Schema (draft-07) of what `kreplay overhead --json` prints and `-o FILE` writes, version 1:
 * per workload shape and footprint (`results`), what each replay variant adds per dispatch against
 * the same passes without replay. Ships as `@kreplay/bench/schema/overhead-result.schema.json`.
 */
export const overheadResultJsonSchema = kreplayDocumentSchema({
  id: overheadResultSchemaId,
  version: overheadResultVersion,
  title: 'kreplay overhead result, version 1',
  description: 'What `kreplay overhead --json` prints and `-o FILE` writes: per workload shape and footprint, the per-dispatch overhead of each replay variant, its staging, warm-up and verification.',
  properties: { results: arrayOf(result) },
});
