import { arrayOf, count, kreplayDocumentSchema, kreplaySchemaId, objectOf, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay profile --list-sections --json` (and `--list-sets --json`) prints. */
export const profileSectionListVersion = 1;
/** The `schema` of what `kreplay profile --list-sections --json` and `--list-sets --json` print. */
export const profileSectionListSchemaId = kreplaySchemaId('profile-section-list', profileSectionListVersion);

const setName = { enum: ['basic', 'detailed', 'full', 'roofline'] };
const capabilities = arrayOf({ type: 'object', properties: { min: count, max: count } });
const metric = objectOf({ label: string, name: string, on: capabilities, options: arrayOf(objectOf({ name: string, on: capabilities })) }, ['on', 'options']);
const section = objectOf({
  identifier: string,
  displayName: string,
  order: count,
  sets: arrayOf(setName),
  header: arrayOf(metric),
  body: arrayOf(metric),
  leftOut: arrayOf(objectOf({ names: arrayOf(string), reason: string })),
});

/**
 * The JSON Schema (draft-07) of what `kreplay profile --list-sections --json` and `--list-sets
 * --json` print, version 1: the section definitions, ncu's sections left out and why, and each
 * set's sections. Ships as `@kreplay/bench/schema/profile-section-list.schema.json`.
 */
export const profileSectionListJsonSchema = kreplayDocumentSchema({
  id: profileSectionListSchemaId,
  version: profileSectionListVersion,
  title: 'kreplay profile section list, version 1',
  description: "What `kreplay profile --list-sections --json` and `--list-sets --json` print: each section kreplay defines (ncu's identifier, its metrics and what it leaves out), ncu's sections kreplay leaves out, and the sections of each of ncu's sets.",
  properties: {
    sections: arrayOf(section),
    missing: arrayOf(objectOf({ identifier: string, sets: arrayOf(setName), reason: string })),
    sets: { type: 'object', additionalProperties: arrayOf(string) },
  },
});
