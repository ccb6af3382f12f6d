import { amount, arrayOf, boolean, kreplayDocumentSchema, nullable, objectOf, string } from '../report/json-schema-parts.js';
import { benchComparisonSchemaId, benchComparisonVersion } from './compare-reports.js';

const change = objectOf({
  key: string,
  metric: string,
  direction: { enum: ['lower-is-better', 'higher-is-better'] },
  base: { type: 'number' },
  head: { type: 'number' },
  worsening: nullable('number', { description: 'Relative change in the bad direction (0.25: 25% worse); null where JSON cannot hold it (an infinite change from a zero base).' }),
  regressed: boolean,
});

/**
 * The JSON Schema (draft-07) of a comparison of two bench reports (`kreplay compare base.json
 * head.json --json`), version 1. Ships as `@kreplay/bench/schema/bench-comparison.schema.json`.
 */
export const benchComparisonJsonSchema = kreplayDocumentSchema({
  id: benchComparisonSchemaId,
  version: benchComparisonVersion,
  title: 'kreplay bench comparison, version 1',
  description: 'Every metric of a head bench report against the same metric of a base report, matched by configuration key: the relative worsening, the regressions beyond the threshold, and the keys found in one report only.',
  properties: {
    threshold: amount,
    changes: arrayOf(change),
    regressions: arrayOf(change),
    onlyInBase: arrayOf(string),
    onlyInHead: arrayOf(string),
  },
});
