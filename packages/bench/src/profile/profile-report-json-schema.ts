import { amount, arrayOf, boolean, count, kreplayDocumentSchema, nullable, objectOf, positiveCount, string } from '../report/json-schema-parts.js';
import { profileReportSchemaId, profileReportVersion } from './profile-document.js';

const launchDimensions = { type: 'array', items: positiveCount, minItems: 3, maxItems: 3 };
// CUPTI's value of a metric that is not a number (a ratio over zero cycles) is null in JSON.
const metricValues = { type: 'object', additionalProperties: nullable('number') };

const row = objectOf(
  {
    dispatch: count,
    kernel: string,
    grid: launchDimensions,
    block: launchDimensions,
    range: nullable('integer', { minimum: 0 }),
    replayed: boolean,
    passes: count,
    wallMs: amount,
    bytesCopied: amount,
    metrics: nullable('object', metricValues),
    sampleMetrics: arrayOf(nullable('object', metricValues)),
    error: string,
    declineReason: string,
    graph: objectOf({ graph: string, node: string, nodeIndex: count, graphLaunch: count }),
  },
  ['kernel', 'grid', 'block', 'sampleMetrics', 'error', 'declineReason', 'graph'],
);

const range = objectOf(
  {
    first: count,
    dispatches: positiveCount,
    replayed: boolean,
    passes: count,
    wallMs: amount,
    bytesCopied: amount,
    tier: nullable('string'),
    bytes: { type: 'object' },
    declineReason: string,
    error: string,
  },
  ['tier', 'bytes', 'declineReason', 'error'],
);

/**
 * The JSON Schema (draft-07) of a profile (`kreplay profile --json`), version 1: what
 * {@link parseProfileReport} validates on read. Times, byte counts and counts are non-negative;
 * metric values are numbers (or null: not a number). Properties it does not name are allowed
 * (`conditions`, more fields per range), so that a profile stays readable when the profiler
 * records more. The same document ships as `@kreplay/bench/schema/profile-report.schema.json`.
 */
export const profileReportJsonSchema = kreplayDocumentSchema({
  id: profileReportSchemaId,
  version: profileReportVersion,
  title: 'kreplay profile, version 1',
  description: 'What `kreplay profile --json` prints: the device, how it was profiled, each metric and its unit, and per dispatch (per captured launch) the values.',
  properties: {
    driver: string,
    device: string,
    chip: string,
    workload: string,
    strategy: string,
    measure: { enum: ['kernel', 'dispatch'] },
    cacheControl: string,
    range: { type: ['integer', 'string'], minimum: 1 },
    graphProfiling: { enum: ['node', 'graph'], description: 'capture: only: --graph-profiling, each kernel node of a captured graph launch its own result (node) or each captured graph launch one result (graph).' },
    passes: count,
    warmRuns: count,
    samples: positiveCount,
    metrics: arrayOf(string),
    units: { type: 'object', additionalProperties: string },
    setupMs: amount,
    wallMs: amount,
    dispatches: arrayOf(row),
    ranges: arrayOf(range),
    conditions: { type: 'object', description: 'The measurement conditions the profile was taken under (cache control, clocks, warm runs).' },
    notes: arrayOf(string),
  },
  optional: ['conditions', 'notes', 'graphProfiling'],
});
