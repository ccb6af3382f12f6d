import { amount, arrayOf, boolean, count, kreplayDocumentSchema, kreplaySchemaId, objectOf, optionalAmount, positiveCount, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay calibrate --json` prints. */
export const calibrateResultVersion = 1;
/** The `schema` of what `kreplay calibrate --json` prints. */
export const calibrateResultSchemaId = kreplaySchemaId('calibrate-result', calibrateResultVersion);

/** What a native call and copy plans cost (measureNativeCalls): `calibrate --json`'s first fields, and `demo --json`'s `calls`. */
export const nativeCallProperties = {
  driver: string,
  agent: string,
  emptyPlanEnqueueMicroseconds: amount,
  emptyPlanRoundTripMicroseconds: amount,
  copyPlans: arrayOf(objectOf({ bytes: count, segments: positiveCount, bytesPerSecond: optionalAmount })),
};

/**
 * The JSON Schema (draft-07) of what `kreplay calibrate --json` prints, version 1: the cost of a
 * native call, copy plans' throughput, and the replay window's cost per strategy. Ships as
 * `@kreplay/bench/schema/calibrate-result.schema.json`.
 */
export const calibrateResultJsonSchema = kreplayDocumentSchema({
  id: calibrateResultSchemaId,
  version: calibrateResultVersion,
  title: 'kreplay calibrate result, version 1',
  description: 'What `kreplay calibrate --json` prints: what an empty copy plan, copy plans and the replay window cost on this machine.',
  properties: {
    ...nativeCallProperties,
    window: objectOf({
      driver: string,
      passes: positiveCount,
      footprintBytes: count,
      bareDispatchMicroseconds: amount,
      passesWithoutReplayMicroseconds: amount,
      strategies: arrayOf(objectOf({ strategy: string, phaseTimings: boolean, windowMicroseconds: amount, overheadMicroseconds: { type: 'number' }, fixedMicroseconds: { type: 'number' }, ratioToBareDispatch: optionalAmount })),
    }),
  },
});
