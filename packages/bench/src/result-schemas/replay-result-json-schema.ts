import { amount, arrayOf, count, kreplayDocumentSchema, kreplaySchemaId, nullable, objectOf, optionalAmount, positiveCount, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay replay --json` prints. */
export const replayResultVersion = 1;
/** The `schema` of what `kreplay replay --json` prints for the generated workload. */
export const replayResultSchemaId = kreplaySchemaId('replay-result', replayResultVersion);

/** The fields of one replay of the generated workload: `replay --json`'s, and each of `demo --json`'s `replays`. */
export const replayExperimentProperties = {
  driver: string,
  strategy: string,
  tier: string,
  dispatches: count,
  passes: positiveCount,
  range: nullable('integer', { minimum: 1 }),
  ranges: arrayOf({ type: 'object' }),
  footprintBytes: count,
  bytesCopied: amount,
  bytesModel: amount,
  bytesHashed: amount,
  bytes: { type: 'object' },
  hostHighWaterBytes: amount,
  hostBytesLimit: nullable('number', { minimum: 0 }),
  agents: arrayOf(objectOf({ agentId: count, bytesCopied: amount, seconds: amount, bytesPerSecond: optionalAmount, replayedDispatches: count })),
  aggregateBytesPerSecond: optionalAmount,
  processPeakRssBytes: amount,
  seconds: amount,
  replayedDispatches: count,
  declined: arrayOf(string),
  declinedByReason: { type: 'object', additionalProperties: count },
  verification: { type: 'object', additionalProperties: count },
  verified: nullable('boolean'),
  notes: arrayOf(string),
};

/**
 * The JSON Schema (draft-07) of what `kreplay replay --json` prints for the generated workload (a
 * replay experiment), version 1: the top-level measurements, the agents, the verification tally;
 * ranges and byte accounts are objects whose fields it does not fix. Ships as
 * `@kreplay/bench/schema/replay-result.schema.json`.
 */
export const replayResultJsonSchema = kreplayDocumentSchema({
  id: replayResultSchemaId,
  version: replayResultVersion,
  title: 'kreplay replay result, version 1',
  description: 'What `kreplay replay --json` prints for the generated workload: bytes copied and hashed, host memory, time, and what was replayed, declined and verified.',
  properties: replayExperimentProperties,
});
