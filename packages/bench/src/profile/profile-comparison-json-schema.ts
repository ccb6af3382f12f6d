import { amount, arrayOf, boolean, count, kreplayDocumentSchema, nullable, objectOf, positiveCount, string } from '../report/json-schema-parts.js';
import { profileComparisonSchemaId, profileComparisonVersion } from './compare-profiles.js';

const launchDimensions = { type: 'array', items: positiveCount, minItems: 3, maxItems: 3 };
const compared = objectOf({ source: string, device: string, chip: string, workload: string, launches: count });
const delta = objectOf(
  {
    kernel: string,
    grid: launchDimensions,
    block: launchDimensions,
    launches: positiveCount,
    metric: string,
    unit: string,
    a: { type: 'number' },
    b: { type: 'number' },
    change: nullable('number'),
    threshold: nullable('number', { minimum: 0 }),
    moved: boolean,
  },
  ['grid', 'block'],
);
const unmatched = objectOf({ kernel: string, dispatch: count, occurrence: count, grid: launchDimensions, block: launchDimensions }, ['grid', 'block']);

/**
 * The JSON Schema (draft-07) of a comparison of two profiles (`kreplay compare a.json b.json --json`),
 * version 1. The same document ships as `@kreplay/bench/schema/profile-comparison.schema.json`.
 */
export const profileComparisonJsonSchema = kreplayDocumentSchema({
  id: profileComparisonSchemaId,
  version: profileComparisonVersion,
  title: 'kreplay profile comparison, version 1',
  description: 'Per kernel and metric, the means over the matched launches of two profiles and the relative change; the changes beyond their threshold; launches and metrics found in one profile only.',
  properties: {
    a: compared,
    b: compared,
    match: { enum: ['name', 'grid'] },
    thresholds: objectOf({ all: nullable('number', { minimum: 0 }), byMetric: { type: 'object', additionalProperties: amount } }),
    launchesMatched: count,
    deltas: arrayOf(delta),
    moved: arrayOf(delta),
    onlyInA: arrayOf(unmatched),
    onlyInB: arrayOf(unmatched),
    metricsOnlyInA: arrayOf(string),
    metricsOnlyInB: arrayOf(string),
  },
});
