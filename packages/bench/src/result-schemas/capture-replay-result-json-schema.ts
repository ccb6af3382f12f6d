import { amount, arrayOf, boolean, count, kreplayDocumentSchema, kreplaySchemaId, objectOf, positiveCount, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay replay --capture --json` prints. */
export const captureReplayResultVersion = 1;
/** The `schema` of what `kreplay replay --capture DIR --json` prints. */
export const captureReplayResultSchemaId = kreplaySchemaId('capture-replay-result', captureReplayResultVersion);

/**
 * The JSON Schema (draft-07) of what `kreplay replay --capture DIR --json` prints, version 1: the
 * capture, how it was replayed, and per launch its outcome, passes, bytes and time. Ships as
 * `@kreplay/bench/schema/capture-replay-result.schema.json`.
 */
export const captureReplayResultJsonSchema = kreplayDocumentSchema({
  id: captureReplayResultSchemaId,
  version: captureReplayResultVersion,
  title: 'kreplay capture replay result, version 1',
  description: 'What `kreplay replay --capture DIR --json` prints: per captured launch, whether it reproduced the program, its passes, bytes and wall time.',
  properties: {
    capture: string,
    driver: string,
    device: string,
    strategy: string,
    tier: string,
    passes: positiveCount,
    verify: { enum: ['off', 'restore', 'full'] },
    graphProfiling: { enum: ['node', 'graph'], description: '--graph-profiling: kernel nodes of captured graph launches replayed as other launches (node) or each captured graph launch replayed as one graph (graph).' },
    launches: arrayOf(
      objectOf(
        {
          sequence: count,
          function: string,
          outcome: string,
          replayed: boolean,
          passes: count,
          bytesCopied: amount,
          bytesPrepared: amount,
          wallMs: amount,
          error: string,
          declineReason: string,
          graph: objectOf({ graph: string, node: string, nodeIndex: count, graphLaunch: count }),
        },
        ['error', 'declineReason', 'graph'],
      ),
    ),
    relocations: arrayOf({ type: 'object' }),
    reproduced: count,
    mismatched: arrayOf(string),
    failed: arrayOf(string),
    damaged: arrayOf(string),
    seconds: amount,
  },
});
