import { arrayOf, count, kreplayDocumentSchema, kreplaySchemaId, nullable, objectOf, optionalAmount, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay info --json` prints. */
export const infoResultVersion = 1;
/** The `schema` of what `kreplay info --json` prints. */
export const infoResultSchemaId = kreplaySchemaId('info-result', infoResultVersion);

const hostLink = nullable('object', { required: ['name', 'bytesPerSecond'], properties: { name: string, bytesPerSecond: optionalAmount } });

/**
 * The JSON Schema (draft-07) of what `kreplay info --json` prints, version 1: the driver, the
 * addon's and the driver's versions, and each agent (device). Ships as
 * `@kreplay/bench/schema/info-result.schema.json`.
 */
export const infoResultJsonSchema = kreplayDocumentSchema({
  id: infoResultSchemaId,
  version: infoResultVersion,
  title: 'kreplay info result, version 1',
  description: 'What `kreplay info --json` prints: the driver, its versions, and each agent (device) with its architecture, memory and host link.',
  properties: {
    driver: string,
    versions: objectOf({ addon: string, driver: string }),
    agents: arrayOf(objectOf({ id: count, driver: string, name: string, architecture: string, deviceMemoryBytes: count, hostLink })),
  },
});
