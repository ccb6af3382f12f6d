import { arrayOf, kreplayDocumentSchema, kreplaySchemaId, objectOf, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay profile --query-metrics --json` prints. */
export const profileMetricListVersion = 1;
/** The `schema` of what `kreplay profile --query-metrics --json` prints. */
export const profileMetricListSchemaId = kreplaySchemaId('profile-metric-list', profileMetricListVersion);

/**
 * The JSON Schema (draft-07) of what `kreplay profile --query-metrics --json` prints, version 1:
 * the chip, the mode, and the metrics CUPTI knows for it. Ships as
 * `@kreplay/bench/schema/profile-metric-list.schema.json`.
 */
export const profileMetricListJsonSchema = kreplayDocumentSchema({
  id: profileMetricListSchemaId,
  version: profileMetricListVersion,
  title: 'kreplay profile metric list, version 1',
  description: "What `kreplay profile --query-metrics --json` prints: the chip, the listing mode (ncu's --query-metrics-mode) and each metric with its type, unit, hardware unit, description and suffixes.",
  properties: {
    chip: string,
    mode: { enum: ['base', 'suffix', 'all'] },
    metrics: arrayOf(objectOf({ name: string, type: { enum: ['counter', 'ratio', 'throughput'] }, unit: string, hardwareUnit: string, description: string, subMetrics: arrayOf(string) })),
  },
});
