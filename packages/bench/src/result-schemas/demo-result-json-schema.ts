import { arrayOf, kreplayDocumentSchema, kreplaySchemaId, objectOf, string } from '../report/json-schema-parts.js';
import { nativeCallProperties } from './calibrate-result-json-schema.js';
import { replayExperimentProperties } from './replay-result-json-schema.js';

/** The version of the JSON `kreplay demo --json` prints. */
export const demoResultVersion = 1;
/** The `schema` of what `kreplay demo --json` prints. */
export const demoResultSchemaId = kreplaySchemaId('demo-result', demoResultVersion);

/**
 * The JSON Schema (draft-07) of what `kreplay demo --json` prints, version 1: the agents, one
 * verified replay per strategy (each as `replay --json` prints it, without its schema fields) and
 * what a native call costs (as `calibrate --json` begins). Ships as
 * `@kreplay/bench/schema/demo-result.schema.json`.
 */
export const demoResultJsonSchema = kreplayDocumentSchema({
  id: demoResultSchemaId,
  version: demoResultVersion,
  title: 'kreplay demo result, version 1',
  description: 'What `kreplay demo --json` prints: the driver and its agents, one verified replay of the generated workload per strategy, and what an empty copy plan and copy plans cost.',
  properties: {
    driver: string,
    agents: arrayOf(string),
    replays: arrayOf(objectOf(replayExperimentProperties)),
    calls: objectOf(nativeCallProperties),
  },
});
